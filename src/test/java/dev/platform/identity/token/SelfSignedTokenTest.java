package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.util.Base64;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.CertificateThumbprint;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 on the token path: self_signed_tls_client_auth clients (RFC 8705 §2.2), the tokens bound
 * to their certificate (§3), and what a stranger or a client without its certificate is told.
 */
class SelfSignedTokenTest {
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  static final String FORM = "application/x-www-form-urlencoded";
  static final TestPki.Issued CLIENT = TestPki.selfSigned("CN=orders");
  static final TestPki.Issued OTHER = TestPki.selfSigned("CN=orders");

  final TokenPathNode path = new TokenPathNode("selfsigned", START, List.of());
  final Settings settings = path.settings;
  final MutableClock clock = path.clock;
  final SecretDigest digest = path.digest;
  final ServiceAccounts accounts = path.accounts;
  final TokenServlet endpoint = path.endpoint;

  @BeforeEach
  void startKeys() {
    path.start();
  }

  @AfterEach
  void close() {
    path.close();
  }

  /** The JWK set registering {@code issued}'s certificate under its own key. */
  static String jwks(TestPki.Issued issued) throws Exception {
    return "{\"keys\":["
        + new ECKey.Builder(Curve.P_256, (ECPublicKey) issued.certificate().getPublicKey())
            .keyID("tls")
            .x509CertChain(List.of(Base64.encode(issued.certificate().getEncoded())))
            .build()
            .toJSONString()
        + "]}";
  }

  UUID certificateAccount() throws Exception {
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.createWithKeys(
            id,
            new AccountProfile("tls", "org", List.of(), List.of("catalog:*"), "catalog"),
            ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH,
            ServiceAccount.Keys.of(
                ClientJwks.parseCertified(new ObjectMapper().readTree(jwks(CLIENT)))),
            clock.instant()));
    return id;
  }

  TokenAnswer answer(String body, String authorization, X509Certificate certificate) {
    return endpoint.answer(
        () ->
            TokenRequest.from(
                body,
                FORM,
                authorization,
                null,
                Optional.ofNullable(certificate).map(PresentedCertificate::of)),
        "127.0.0.1",
        FailureBudget.NONE);
  }

  static JsonNode json(byte[] body) throws Exception {
    return new ObjectMapper().readTree(body);
  }

  static JsonNode payload(TokenAnswer answer) throws Exception {
    String token = json(answer.body()).path("access_token").asText();
    return json(java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]));
  }

  static String body(UUID id) {
    return "grant_type=client_credentials&client_id=" + id;
  }

  @Test
  void whenTheRegisteredCertificateIsPresentedThenTheTokenIsBoundToIt() throws Exception {
    UUID id = certificateAccount();
    TokenAnswer answer = answer(body(id), null, CLIENT.certificate());
    assertEquals(200, answer.status(), new String(answer.body(), StandardCharsets.UTF_8));
    assertEquals("Bearer", json(answer.body()).path("token_type").asText());
    JsonNode claims = payload(answer);
    assertEquals(
        CertificateThumbprint.of(CLIENT.certificate()),
        claims.path("cnf").path("x5t#S256").asText());
    assertEquals(id.toString(), claims.path("client_id").asText());
  }

  @Test
  void whenAnotherSelfSignedCertificateIsPresentedThenInvalidClientAsForAStranger()
      throws Exception {
    UUID id = certificateAccount();
    TokenAnswer other = answer(body(id), null, OTHER.certificate());
    TokenAnswer stranger = answer(body(UUID.randomUUID()), null, CLIENT.certificate());
    assertEquals(401, other.status());
    assertEquals(json(stranger.body()), json(other.body()));
    assertEquals(401, stranger.status());
    assertEquals(OAuthError.INVALID_CLIENT, json(other.body()).path("error").asText());
    assertEquals(ClientAuthenticator.FAILED, json(other.body()).path("error_description").asText());
  }

  @Test
  void whenNoCertificateIsPresentedThenSpecsMissingSecretAnswerForEveryClientAlike()
      throws Exception {
    UUID id = certificateAccount();
    TokenAnswer mine = answer(body(id), null, null);
    TokenAnswer stranger = answer(body(UUID.randomUUID()), null, null);
    assertEquals(400, mine.status());
    assertEquals(json(stranger.body()), json(mine.body()), "nothing about the account");
    assertEquals("invalid_request", json(mine.body()).path("error").asText());
    assertEquals(
        "missing parameter: client_secret", json(mine.body()).path("error_description").asText());
  }

  @Test
  void whenASecretClientPresentsACertificateItAuthenticatesBySecret() throws Exception {
    UUID id = UUID.randomUUID();
    String secret = "s3cret-" + UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
            id,
            new AccountProfile("secret", "org", List.of(), List.of("catalog:*"), "catalog"),
            digest.of(secret),
            clock.instant()));
    TokenAnswer answer = answer(body(id) + "&client_secret=" + secret, null, CLIENT.certificate());
    assertEquals(200, answer.status(), new String(answer.body(), StandardCharsets.UTF_8));
    assertTrue(payload(answer).path("cnf").isMissingNode());
    // Without its secret, the certificate proves nothing for it.
    TokenAnswer without = answer(body(id), null, CLIENT.certificate());
    assertEquals(401, without.status());
    assertEquals(
        ClientAuthenticator.FAILED, json(without.body()).path("error_description").asText());
  }

  @Test
  void whenTheAccountIsDeactivatedThenOnlyItsOwnCertificateHearsRevoked() throws Exception {
    UUID id = certificateAccount();
    accounts.change(id, account -> account.deactivate(clock.instant()));
    assertEquals(
        ClientAuthenticator.REVOKED,
        json(answer(body(id), null, CLIENT.certificate()).body())
            .path("error_description")
            .asText());
    assertEquals(
        ClientAuthenticator.FAILED,
        json(answer(body(id), null, OTHER.certificate()).body())
            .path("error_description")
            .asText());
  }

  @Test
  void whenTheCertificateAccountSendsAnAssertionOrSecretThenNeitherAuthenticates()
      throws Exception {
    UUID id = certificateAccount();
    TokenAnswer secret = answer(body(id) + "&client_secret=x", null, CLIENT.certificate());
    assertEquals(401, secret.status());
    assertFalse(new String(secret.body(), StandardCharsets.UTF_8).contains("access_token"));
  }

  @Test
  void whenACertificateIsPresentedThenOnlyAClientIdAloneMakesItTheMethod() {
    Optional<PresentedCertificate> presented =
        Optional.of(PresentedCertificate.of(CLIENT.certificate()));
    UUID id = UUID.randomUUID();
    assertEquals(
        ClientAuthentication.SELF_SIGNED_TLS_CLIENT_AUTH,
        TokenRequest.from(body(id), FORM, null, null, presented).authentication());
    assertEquals(
        ClientAuthentication.CLIENT_SECRET_POST,
        TokenRequest.from(body(id) + "&client_secret=s", FORM, null, null, presented)
            .authentication());
    String basic =
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString((id + ":s").getBytes(StandardCharsets.UTF_8));
    TokenRequest byBasic =
        TokenRequest.from("grant_type=client_credentials", FORM, basic, null, presented);
    assertEquals(ClientAuthentication.CLIENT_SECRET_BASIC, byBasic.authentication());
    // The connection's certificate is kept, as what a bound token would name, but proves nothing.
    assertFalse(byBasic.byCertificate());
    assertEquals(presented, byBasic.certificate());
    // Revocation and introspection parse the client the same way.
    assertEquals(
        ClientAuthentication.SELF_SIGNED_TLS_CLIENT_AUTH,
        ClientCall.from("client_id=" + id + "&token=t", FORM, null, null, presented)
            .client()
            .authentication());
    // A repeated client_id is still refused, certificate or not.
    OAuthError repeated =
        org.junit.jupiter.api.Assertions.assertThrows(
            OAuthError.class,
            () -> TokenRequest.from(body(id) + "&client_id=" + id, FORM, null, null, presented));
    assertEquals(OAuthError.INVALID_REQUEST, repeated.error());
  }

  String assertion(UUID id) throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(id.toString())
            .subject(id.toString())
            .audience(settings.tokens().issuer() + "/oauth/token")
            .issueTime(Date.from(clock.instant()))
            .expirationTime(Date.from(clock.instant().plusSeconds(60)))
            .jwtID(UUID.randomUUID().toString())
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("tls").type(JOSEObjectType.JWT).build(),
            claims);
    jwt.sign(new ECDSASigner((java.security.interfaces.ECPrivateKey) CLIENT.keys().getPrivate()));
    return jwt.serialize();
  }

  @Test
  void whenTheCertificateKeySignsAnAssertionThenItIsRefusedWithOrWithoutTheCertificate()
      throws Exception {
    UUID id = certificateAccount();
    String body =
        "grant_type=client_credentials&client_assertion_type="
            + ReceivedAssertion.TYPE
            + "&client_assertion="
            + assertion(id);
    TokenAnswer without = answer(body, null, null);
    TokenAnswer with = answer(body, null, CLIENT.certificate());
    assertEquals(401, without.status(), new String(without.body(), StandardCharsets.UTF_8));
    assertEquals(401, with.status(), new String(with.body(), StandardCharsets.UTF_8));
    TokenAnswer withId = answer(body + "&client_id=" + id, null, CLIENT.certificate());
    assertEquals(401, withId.status(), new String(withId.body(), StandardCharsets.UTF_8));
  }

  @Test
  void whenBasicCarriesTheIdWithNoPasswordThenTheCertificateDoesNotAuthenticate() throws Exception {
    UUID id = certificateAccount();
    String basic =
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString((id + ":").getBytes(StandardCharsets.UTF_8));
    TokenAnswer a = answer("grant_type=client_credentials", basic, CLIENT.certificate());
    assertFalse(new String(a.body(), StandardCharsets.UTF_8).contains("access_token"));
    TokenAnswer b = answer(body(id), basic, CLIENT.certificate());
    assertFalse(new String(b.body(), StandardCharsets.UTF_8).contains("access_token"));
    // empty client_secret in the body = omitted (RFC 6749 §3.2): certificate path, fine
    TokenAnswer c = answer(body(id) + "&client_secret=", null, CLIENT.certificate());
    assertEquals(200, c.status(), new String(c.body(), StandardCharsets.UTF_8));
    // upper-case client_id names the same account; token's sub is canonical
    TokenAnswer d =
        answer(
            "grant_type=client_credentials&client_id=" + id.toString().toUpperCase(),
            null,
            CLIENT.certificate());
    assertEquals(200, d.status(), new String(d.body(), StandardCharsets.UTF_8));
    assertEquals(id.toString(), payload(d).path("sub").asText());
  }

  @Test
  void whenTheAccountIsDeletedThenItsCertificateGetsNoToken() throws Exception {
    UUID id = certificateAccount();
    accounts.change(id, account -> account.delete(clock.instant()));
    TokenAnswer a = answer(body(id), null, CLIENT.certificate());
    assertEquals(401, a.status(), new String(a.body(), StandardCharsets.UTF_8));
  }
}
