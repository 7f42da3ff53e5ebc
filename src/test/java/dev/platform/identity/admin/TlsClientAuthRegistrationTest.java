package dev.platform.identity.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.account.CertificateSubject;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: what {@code POST /admin/v1/service-accounts} takes for a tls_client_auth account
 * (exactly one RFC 8705 §2.1.2 subject, only on a server with CAs) and for bound tokens (§3.4),
 * read from JSON as the API reads it.
 */
class TlsClientAuthRegistrationTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static NewAccount body(String fields) throws Exception {
    return JSON.readValue(
        "{\"name\":\"tls\",\"organization_id\":\"org\",\"scopes\":[\"catalog:read\"]"
            + (fields.isEmpty() ? "" : "," + fields)
            + "}",
        NewAccount.class);
  }

  static String refused(NewAccount body, boolean authorities) {
    return assertThrows(ApiError.class, () -> body.subject(authorities)).getMessage();
  }

  @Test
  void whenOneSubjectIsGivenThenItIsTheAccountsAndItsTokensAreBound() throws Exception {
    NewAccount body =
        body(
            "\"token_endpoint_auth_method\":\"tls_client_auth\","
                + "\"tls_client_auth_san_dns\":\"orders.kitchen.example\"");
    assertEquals(
        new CertificateSubject(CertificateSubject.Kind.SAN_DNS, "orders.kitchen.example"),
        body.subject(true).orElseThrow());
    assertFalse(body.bindsTokens(), "nothing asked: a certificate account's are bound anyway");
  }

  @Test
  void whenNoneOrTwoSubjectsAreGivenThenRefusedNamingTheForms() throws Exception {
    String none = refused(body("\"token_endpoint_auth_method\":\"tls_client_auth\""), true);
    assertTrue(none.contains("exactly one of tls_client_auth_subject_dn"), none);
    String two =
        refused(
            body(
                "\"token_endpoint_auth_method\":\"tls_client_auth\","
                    + "\"tls_client_auth_subject_dn\":\"CN=orders\","
                    + "\"tls_client_auth_san_dns\":\"orders.kitchen.example\""),
            true);
    assertTrue(two.contains("2 were given"), two);
  }

  @Test
  void whenTheServerHasNoCasThenRefusedNamingTheSetting() throws Exception {
    String message =
        refused(
            body(
                "\"token_endpoint_auth_method\":\"tls_client_auth\","
                    + "\"tls_client_auth_subject_dn\":\"CN=orders\""),
            false);
    assertTrue(message.contains("identity/tlsClientCaFile"), message);
  }

  @Test
  void whenTheSubjectIsNotOfItsFormThenRefusedNamingTheField() throws Exception {
    String message =
        refused(
            body(
                "\"token_endpoint_auth_method\":\"tls_client_auth\","
                    + "\"tls_client_auth_san_dns\":\"*.kitchen.example\""),
            true);
    assertTrue(message.startsWith("tls_client_auth_san_dns is not a DNS name"), message);
  }

  @Test
  void whenAnotherMethodIsGivenASubjectThenRefused() throws Exception {
    String message = refused(body("\"tls_client_auth_san_ip\":\"10.0.0.7\""), true);
    assertEquals(
        "tls_client_auth_san_ip is only for token_endpoint_auth_method tls_client_auth", message);
  }

  @Test
  void whenBindingIsAskedOrRefusedThenSecretAccountsMayAndCertificateAccountsCannotOptOut()
      throws Exception {
    assertTrue(body("\"tls_client_certificate_bound_access_tokens\":true").bindsTokens());
    assertFalse(body("\"tls_client_certificate_bound_access_tokens\":false").bindsTokens());
    ApiError error =
        assertThrows(
            ApiError.class,
            () ->
                body("\"token_endpoint_auth_method\":\"self_signed_tls_client_auth\","
                        + "\"tls_client_certificate_bound_access_tokens\":false")
                    .bindsTokens());
    assertTrue(error.getMessage().contains("always bound"), error.getMessage());
  }
}
