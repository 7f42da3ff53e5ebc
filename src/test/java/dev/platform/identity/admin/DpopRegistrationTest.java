package dev.platform.identity.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.web.Json;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 40: {@code dpop_bound_access_tokens} (RFC 9449 §5.2) at {@code POST
 * /admin/v1/service-accounts}, read by the API's own mapper, and shown on the account.
 */
class DpopRegistrationTest {
  static final ObjectMapper API = new Json().getContext(NewAccount.class);
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  static NewAccount body(String fields) throws JsonProcessingException {
    return API.readValue(
        "{\"name\":\"dpop\",\"organization_id\":\"org\",\"scopes\":[\"catalog:read\"]"
            + (fields.isEmpty() ? "" : "," + fields)
            + "}",
        NewAccount.class);
  }

  @Test
  void whenDpopIsAskedForThenAnyMethodMayAndUnsetMeansNo() throws Exception {
    assertFalse(body("").requiresDpop());
    assertFalse(body("\"dpop_bound_access_tokens\":false").requiresDpop());
    assertTrue(body("\"dpop_bound_access_tokens\":true").requiresDpop());
    for (String method : NewAccount.METHODS) {
      NewAccount body =
          body(
              "\"token_endpoint_auth_method\":\""
                  + method
                  + "\",\"dpop_bound_access_tokens\":true");
      assertTrue(body.requiresDpop(), method);
    }
  }

  @Test
  void whenTheValueIsNotABooleanThenA400NamesTheField() {
    for (String wrong : List.of("\"true\"", "1", "0", "1.0", "\"\"", "[]", "{}")) {
      JsonProcessingException failure =
          assertThrows(
              JsonProcessingException.class,
              () -> body("\"dpop_bound_access_tokens\":" + wrong),
              wrong);
      assertEquals(
          "field 'dpop_bound_access_tokens' has the wrong type or value",
          InvalidJsonMapper.message(failure),
          wrong);
    }
  }

  @Test
  void whenTheCertificateBindingIsAStringThenA400NamesItToo() {
    JsonProcessingException failure =
        assertThrows(
            JsonProcessingException.class,
            () -> body("\"tls_client_certificate_bound_access_tokens\":\"true\""));
    assertEquals(
        "field 'tls_client_certificate_bound_access_tokens' has the wrong type or value",
        InvalidJsonMapper.message(failure));
  }

  @Test
  void whenAnAccountRequiresDpopThenBothAnswersShowIt() throws Exception {
    ServiceAccount plain = account();
    ServiceAccount dpop = account().requiringDpop();
    assertFalse(AccountJson.from(plain, NOW).dpopBoundAccessTokens());
    assertTrue(AccountJson.from(dpop, NOW).dpopBoundAccessTokens());
    assertTrue(AccountJson.Created.from(dpop, "secret").dpopBoundAccessTokens());
    String shown = API.writeValueAsString(AccountJson.from(dpop, NOW));
    assertTrue(shown.contains("\"dpop_bound_access_tokens\":true"), shown);
    assertTrue(
        API.writeValueAsString(AccountJson.Created.from(plain, "secret"))
            .contains("\"dpop_bound_access_tokens\":false"));
  }

  private static ServiceAccount account() {
    return ServiceAccount.createWithKeys(
        UUID.randomUUID(),
        new AccountProfile("dpop", "org", List.of(), List.of("catalog:read"), "catalog"),
        ServiceAccount.Keys.at(java.net.URI.create("https://keys.example/jwks.json")),
        NOW);
  }
}
