package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.admin.NewAccount;
import dev.platform.identity.tls.TestPki;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 39: the new-account form's fields, as the API's body of one authentication method. */
class ConsoleAccountsResourceTest {
  static Map<String, String> form(String... pairs) {
    Map<String, String> given = new HashMap<>();
    given.put("name", "orders");
    given.put("organization_id", "org-a");
    given.put("scopes", "marketing:* billing:read");
    given.put("accessible_orgs", "");
    given.put("service_name", "");
    for (int i = 0; i < pairs.length; i += 2) {
      given.put(pairs[i], pairs[i + 1]);
    }
    return given;
  }

  @Test
  void whenNoMethodIsChosenThenTheAccountHasASecretOverBasicAsBefore() {
    NewAccount body = ConsoleAccountsResource.body(form());
    assertEquals("client_secret_basic", body.tokenEndpointAuthMethod());
    assertEquals(List.of("marketing:*", "billing:read"), body.scopes());
    assertNull(body.jwks());
    assertNull(body.tlsClientCertificateBoundAccessTokens(), "unticked: the API's default");
    NewAccount bound =
        ConsoleAccountsResource.body(
            form(
                "token_endpoint_auth_method", "client_secret_basic",
                "tls_client_certificate_bound_access_tokens", "true"));
    assertEquals(Boolean.TRUE, bound.tlsClientCertificateBoundAccessTokens());
  }

  @Test
  void whenDpopIsTickedThenTheBodyAsksForItWithAnyMethod() throws Exception {
    assertNull(ConsoleAccountsResource.body(form()).dpopBoundAccessTokens(), "unticked");
    String pem = CertificateKeySetTest.pem(TestPki.selfSigned("CN=orders").certificate());
    for (String method : ConsoleAccountsResource.METHODS.keySet()) {
      NewAccount body =
          ConsoleAccountsResource.body(
              form(
                  "token_endpoint_auth_method",
                  method,
                  "dpop_bound_access_tokens",
                  "true",
                  "certificate",
                  method.equals("self_signed_tls_client_auth") ? pem : ""));
      assertEquals(Boolean.TRUE, body.dpopBoundAccessTokens(), method);
      assertEquals(method, body.tokenEndpointAuthMethod());
    }
    assertTrue(ConsoleAccountsResource.FIELDS.contains("dpop_bound_access_tokens"));
  }

  @Test
  void whenTheSubjectFormIsChosenThenItsValueGoesToThatFieldAlone() {
    Map<String, java.util.function.Function<NewAccount, String>> fields =
        Map.of(
            "subject_dn", NewAccount::tlsClientAuthSubjectDn,
            "san_dns", NewAccount::tlsClientAuthSanDns,
            "san_uri", NewAccount::tlsClientAuthSanUri,
            "san_ip", NewAccount::tlsClientAuthSanIp,
            "san_email", NewAccount::tlsClientAuthSanEmail);
    for (String chosen : ConsoleAccountsResource.SUBJECT_FORMS.keySet()) {
      NewAccount body =
          ConsoleAccountsResource.body(
              form(
                  "token_endpoint_auth_method",
                  "tls_client_auth",
                  "tls_client_auth_subject_form",
                  chosen,
                  "tls_client_auth_subject",
                  "value-of-" + chosen));
      assertEquals("tls_client_auth", body.tokenEndpointAuthMethod());
      fields.forEach(
          (form, field) ->
              assertEquals(
                  form.equals(chosen) ? "value-of-" + chosen : null,
                  field.apply(body),
                  chosen + " put into " + form));
    }
    // No value: none is given, and the API says that one is needed.
    NewAccount empty =
        ConsoleAccountsResource.body(
            form(
                "token_endpoint_auth_method", "tls_client_auth",
                "tls_client_auth_subject_form", "san_dns"));
    assertNull(empty.tlsClientAuthSanDns());
  }

  @Test
  void whenACertificateIsPastedForSelfSignedThenTheBodyCarriesItsKeySet() throws Exception {
    String pem = CertificateKeySetTest.pem(TestPki.selfSigned("CN=orders").certificate());
    NewAccount body =
        ConsoleAccountsResource.body(
            form("token_endpoint_auth_method", "self_signed_tls_client_auth", "certificate", pem));
    assertEquals("self_signed_tls_client_auth", body.tokenEndpointAuthMethod());
    assertEquals(1, body.jwks().get("keys").get(0).get("x5c").size());
    assertNull(body.jwksUri());
  }

  @Test
  void whenTheFormIsOfferedWhatItDoesNotListOrMixesMethodsThenItIsRefused() throws Exception {
    String pem = CertificateKeySetTest.pem(TestPki.selfSigned("CN=orders").certificate());
    assertRefused(form("token_endpoint_auth_method", "private_key_jwt"), "one of the form's");
    assertRefused(form("token_endpoint_auth_method", "none"), "one of the form's");
    assertRefused(form("tls_client_certificate_bound_access_tokens", "false"), "true, or not sent");
    assertRefused(
        form("dpop_bound_access_tokens", "on"), "dpop_bound_access_tokens is a checkbox: true");
    assertRefused(
        form(
            "token_endpoint_auth_method", "tls_client_auth",
            "tls_client_auth_subject_form", "tls_client_auth_san_dns",
            "tls_client_auth_subject", "a.example"),
        "subject form must be one of");
    assertRefused(
        form("tls_client_auth_subject_form", "san_dns", "tls_client_auth_subject", "a.example"),
        "only for a CA-issued certificate");
    assertRefused(
        form("token_endpoint_auth_method", "tls_client_auth", "certificate", pem),
        "only for a self-signed certificate");
    assertRefused(
        form(
            "token_endpoint_auth_method", "self_signed_tls_client_auth",
            "certificate", pem,
            "tls_client_auth_subject", "CN=x"),
        "only for a CA-issued certificate");
    assertRefused(
        form("token_endpoint_auth_method", "self_signed_tls_client_auth", "certificate", "x"),
        "is not one PEM certificate");
  }

  @Test
  void whenTheAccountHasASubjectThenItsPageNamesItsForm() {
    Map<String, Object> parameters = new HashMap<>();
    ConsoleAccountsResource.subject(parameters, null, null, null, "192.0.2.1", null);
    assertEquals("IP address (SAN)", parameters.get("subjectForm"));
    assertEquals("192.0.2.1", parameters.get("subjectValue"));
    ConsoleAccountsResource.subject(parameters, null, null, null, null, null);
    assertNull(parameters.get("subjectForm"));
  }

  static void assertRefused(Map<String, String> form, String because) {
    FormFields.InvalidFormException refused =
        assertThrows(
            FormFields.InvalidFormException.class, () -> ConsoleAccountsResource.body(form));
    assertTrue(refused.getMessage().contains(because), refused.getMessage());
  }
}
