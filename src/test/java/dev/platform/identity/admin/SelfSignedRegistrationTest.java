package dev.platform.identity.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.tls.TestPki;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPublicKey;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 39: what a self_signed_tls_client_auth registration takes and refuses (RFC 8705 §2.2). */
class SelfSignedRegistrationTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final TestPki.Issued CLIENT = TestPki.selfSigned("CN=orders");
  static final TestPki.Issued OTHER = TestPki.selfSigned("CN=other");
  static final NewKeys.UriPolicy ANY_URI = uri -> {};

  /** {@code issued}'s key as a JWK, carrying {@code x5c} when it is not null. */
  static ObjectNode jwk(TestPki.Issued issued, ArrayNode x5c) throws Exception {
    ObjectNode jwk =
        (ObjectNode)
            JSON.readTree(
                new ECKey.Builder(Curve.P_256, (ECPublicKey) issued.certificate().getPublicKey())
                    .keyID("tls")
                    .build()
                    .toJSONString());
    if (x5c != null) {
      jwk.set("x5c", x5c);
    }
    return jwk;
  }

  static ArrayNode x5c(TestPki.Issued issued) throws Exception {
    return JSON.createArrayNode()
        .add(Base64.getEncoder().encodeToString(issued.certificate().getEncoded()));
  }

  static JsonNode set(JsonNode... keys) {
    ObjectNode set = JSON.createObjectNode();
    set.set("keys", JSON.createArrayNode().addAll(List.of(keys)));
    return set;
  }

  static NewAccount account(JsonNode jwks, String jwksUri) {
    return new NewAccount(
        "tls",
        "org",
        List.of("catalog:read"),
        null,
        null,
        ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH,
        jwks,
        jwksUri);
  }

  static String refused(JsonNode jwks, String jwksUri) {
    ApiError error = assertThrows(ApiError.class, () -> account(jwks, jwksUri).keys(ANY_URI));
    assertEquals(400, error.status());
    return error.getMessage();
  }

  @Test
  void whenEveryKeyCarriesItsOwnCertificateThenTheSetIsKeptWithIt() throws Exception {
    ServiceAccount.Keys keys =
        account(set(jwk(CLIENT, x5c(CLIENT))), null).keys(ANY_URI).orElseThrow();
    assertTrue(keys.jwks().contains("x5c"), keys.jwks());
    ClientJwks stored = ClientJwks.parseCertified(keys.jwks().getBytes());
    assertEquals(List.of(CLIENT.certificate()), stored.certificates());
  }

  @Test
  void whenAKeyHasNoCertificateThenA400SaysSo() throws Exception {
    assertTrue(refused(set(jwk(CLIENT, null)), null).contains("has no x5c"));
  }

  @Test
  void whenTheCertificateDoesNotParseThenA400SaysSo() throws Exception {
    ArrayNode garbage = JSON.createArrayNode().add("bm90IGEgY2VydGlmaWNhdGU=");
    assertTrue(refused(set(jwk(CLIENT, garbage)), null).contains("does not parse"));
    ArrayNode two = x5c(CLIENT).add(x5c(OTHER).get(0));
    assertTrue(refused(set(jwk(CLIENT, two)), null).contains("exactly one"));
  }

  @Test
  void whenTheCertificateHoldsAnotherKeyThenA400SaysSo() throws Exception {
    String message = refused(set(jwk(CLIENT, x5c(OTHER))), null);
    assertTrue(message.contains("not the key's own"), message);
  }

  @Test
  void whenAJwksUriIsGivenThenA400SaysItIsNotTaken() throws Exception {
    String message = refused(null, "https://client.example/jwks");
    assertTrue(message.contains("jwks_uri is not accepted"), message);
    assertTrue(refused(null, null).contains("needs jwks"));
  }

  @Test
  void whenPrivateKeyJwtRegistersACertificateThenItIsNotKept() throws Exception {
    NewAccount body =
        new NewAccount(
            "jwt",
            "org",
            List.of("catalog:read"),
            null,
            null,
            ServiceAccount.PRIVATE_KEY_JWT,
            set(jwk(CLIENT, x5c(OTHER))),
            null);
    assertFalse(body.keys(ANY_URI).orElseThrow().jwks().contains("x5c"));
  }

  @Test
  void whenAnUnknownMethodIsNamedThenTheMessageListsTheNewOne() {
    NewAccount body =
        new NewAccount(
            "x", "org", List.of("catalog:read"), null, null, "tls_client_auth_x", null, null);
    ApiError error = assertThrows(ApiError.class, body::method);
    assertTrue(error.getMessage().contains(", tls_client_auth or self_signed_tls_client_auth"));
  }

  static ArrayNode x5cOf(byte[] bytes) {
    return JSON.createArrayNode().add(Base64.getEncoder().encodeToString(bytes));
  }

  @Test
  void whenTheCertificateIsFollowedByAnotherThenA400() throws Exception {
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.write(CLIENT.certificate().getEncoded());
    both.write(OTHER.certificate().getEncoded());
    String message = refused(set(jwk(CLIENT, x5cOf(both.toByteArray()))), null);
    assertTrue(message.contains("does not parse"), message);
  }

  @Test
  void whenTheCertificateIsFollowedByAnythingThenA400() throws Exception {
    ByteArrayOutputStream trailing = new ByteArrayOutputStream();
    trailing.write(CLIENT.certificate().getEncoded());
    trailing.write("hidden".getBytes(StandardCharsets.UTF_8));
    String message = refused(set(jwk(CLIENT, x5cOf(trailing.toByteArray()))), null);
    assertTrue(message.contains("does not parse"), message);
  }

  @Test
  void whenTheX5cHoldsPemTextNotDerThenA400() throws Exception {
    String pem =
        "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder().encodeToString(CLIENT.certificate().getEncoded())
            + "\n-----END CERTIFICATE-----\n";
    String message =
        refused(set(jwk(CLIENT, x5cOf(pem.getBytes(StandardCharsets.US_ASCII)))), null);
    assertTrue(message.contains("does not parse"), message);
  }
}
