package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLAIMS_JSON;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.HEADER_JSON;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.boundTo;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 39: certificate-bound tokens (RFC 8705 §3). A token whose {@code cnf} names a certificate's
 * thumbprint passes only with that certificate, cold and on a cache hit alike; an unbound token
 * passes unless binding is required; a {@code cnf} of any other shape is invalid.
 */
class BearerVerifierBindingTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final TestPki CA = TestPki.authority("Binding CA");
  private static final X509Certificate CLIENT = CA.client("CN=orders").certificate();

  /** Same subject and issuer, another key: another certificate. */
  private static final X509Certificate SAME_NAME = CA.client("CN=orders").certificate();

  private static final X509Certificate SELF_SIGNED = TestPki.selfSigned("CN=orders").certificate();

  private static final String BOUND =
      TestTokens.signed(boundTo(serviceAccount(), CLIENT), KEYS.getPrivate());
  private static final String UNBOUND = TestTokens.signed(serviceAccount(), KEYS.getPrivate());

  private final BearerVerifier verifier = verifier(BearerVerifier.builder());

  private static BearerVerifier verifier(BearerVerifier.Builder builder) {
    return builder
        .issuer(ISSUER)
        .clock(CLOCK)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .build();
  }

  private static UnauthenticatedException refusal(
      BearerVerifier verifier, String token, X509Certificate certificate) {
    return assertThrows(
        UnauthenticatedException.class, () -> verifier.verifyToken(token, certificate, List.of()));
  }

  @Test
  void whenABoundTokenComesWithItsCertificateThenItPassesAndNamesTheThumbprint() {
    VerifiedToken token = verifier.verify("Bearer " + BOUND, CLIENT, List.of("marketing:x"));

    assertEquals(Optional.of(CertificateThumbprint.of(CLIENT)), token.certificateThumbprint());
  }

  @Test
  void whenABoundTokenComesWithoutACertificateThen401InvalidToken() {
    UnauthenticatedException e = refusal(verifier, BOUND, null);

    assertEquals(UnauthenticatedException.CERTIFICATE_MISSING, e.getMessage());
    assertEquals(401, e.status());
    assertEquals("Bearer error=\"invalid_token\"", e.challenge());
  }

  @Test
  void whenABoundTokenComesThroughTheOldMethodsThenItIsRefusedAsWithoutACertificate() {
    assertEquals(
        UnauthenticatedException.CERTIFICATE_MISSING,
        assertThrows(UnauthenticatedException.class, () -> verifier.verifyToken(BOUND, List.of()))
            .getMessage());
    assertThrows(
        UnauthenticatedException.class, () -> verifier.verify("Bearer " + BOUND, List.of()));
  }

  @Test
  void whenABoundTokenComesWithAnotherCertificateOfTheSameNameThen401InvalidToken() {
    for (X509Certificate other : List.of(SAME_NAME, SELF_SIGNED)) {
      UnauthenticatedException e = refusal(verifier, BOUND, other);

      assertEquals(UnauthenticatedException.CERTIFICATE_MISMATCH, e.getMessage());
      assertEquals("Bearer error=\"invalid_token\"", e.challenge());
    }
  }

  @Test
  void whenABoundTokenIsACacheHitThenTheBindingIsCheckedAgainOnEveryCall() {
    VerifiedToken first = verifier.verifyToken(BOUND, CLIENT, List.of());

    assertEquals(
        UnauthenticatedException.CERTIFICATE_MISSING, refusal(verifier, BOUND, null).getMessage());
    assertEquals(
        UnauthenticatedException.CERTIFICATE_MISMATCH,
        refusal(verifier, BOUND, SAME_NAME).getMessage());
    assertSame(first, verifier.verifyToken(BOUND, CLIENT, List.of()));
    assertEquals(1, verifier.cachedTokens());
  }

  @Test
  void whenTheFirstCallIsWithoutTheCertificateThenTheCachedTokenStillPassesWithIt() {
    refusal(verifier, BOUND, null);

    assertEquals(1, verifier.cachedTokens());
    assertTrue(verifier.verifyToken(BOUND, CLIENT, List.of()).certificateThumbprint().isPresent());
  }

  @Test
  void whenTheCacheIsOffThenTheBindingIsCheckedAlike() {
    BearerVerifier uncached = verifier(BearerVerifier.builder().cache(false));

    uncached.verifyToken(BOUND, CLIENT, List.of());
    refusal(uncached, BOUND, SAME_NAME);
    refusal(uncached, BOUND, null);
  }

  @Test
  void whenAnUnboundTokenComesWithOrWithoutACertificateThenItPasses() {
    assertFalse(verifier.verifyToken(UNBOUND, null, List.of()).certificateThumbprint().isPresent());
    assertFalse(
        verifier.verifyToken(UNBOUND, CLIENT, List.of()).certificateThumbprint().isPresent());
  }

  @Test
  void whenBindingIsRequiredThenAnUnboundTokenIsRefusedAndABoundOnePassesWithItsCertificate() {
    BearerVerifier strict = verifier(BearerVerifier.builder().requireCertificateBinding(true));

    for (X509Certificate certificate : new X509Certificate[] {null, CLIENT}) {
      UnauthenticatedException e = refusal(strict, UNBOUND, certificate);
      assertEquals(UnauthenticatedException.BINDING_REQUIRED, e.getMessage());
      assertEquals("Bearer error=\"invalid_token\"", e.challenge());
    }
    strict.verifyToken(BOUND, CLIENT, List.of());
    refusal(strict, BOUND, null);
  }

  @Test
  void whenTheCertificateIsCheckedThroughBearerCheckThenTheRefusalCarriesTheChallenge() {
    BearerCheck.Refused refused =
        assertInstanceOf(
            BearerCheck.Refused.class,
            BearerCheck.of(verifier, List.of("Bearer " + BOUND), SAME_NAME, List.of()));

    assertEquals(401, refused.status());
    assertEquals("Bearer error=\"invalid_token\"", refused.headers().get("WWW-Authenticate"));
    assertInstanceOf(
        BearerCheck.Passed.class,
        BearerCheck.of(verifier, List.of("Bearer " + BOUND), CLIENT, List.of()));
  }

  @Test
  void whenABoundTokenIsInspectedThenItIsJudgedWithoutACertificateAndKeepsItsThumbprint() {
    BearerVerifier strict = verifier(BearerVerifier.builder().requireCertificateBinding(true));

    assertEquals(
        Optional.of(CertificateThumbprint.of(CLIENT)),
        verifier.inspectToken(BOUND).certificateThumbprint());
    assertFalse(strict.inspectToken(UNBOUND).certificateThumbprint().isPresent());
    refusal(verifier, BOUND, null); // the same cached token, verified for a request
  }

  private static final String GOOD = CertificateThumbprint.of(CLIENT);

  /** A thumbprint of the right length and alphabet whose last character carries stray bits. */
  private static final String STRAY_BITS = GOOD.substring(0, 42) + "B";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "null",
        "\"GOOD\"",
        "[]",
        "[{\"x5t#S256\":\"GOOD\"}]",
        "{}",
        "{\"x5t#S256\":null}",
        "{\"x5t#S256\":42}",
        "{\"x5t#S256\":[\"GOOD\"]}",
        "{\"x5t#S256\":\"\"}",
        "{\"x5t#S256\":\"GOOD=\"}",
        "{\"x5t#S256\":\"GOODA\"}",
        "{\"x5t#S256\":\"SHORT\"}",
        "{\"x5t#S256\":\"STRAY\"}",
        "{\"x5t#S256\":\"PLUS\"}",
        "{\"x5t\":\"GOOD\"}",
        "{\"jkt\":null}",
        "{\"jkt\":\"SHORT\"}",
        "{\"jkt\":\"PLUS\"}",
        "{\"x5t#S256\":\"GOOD\",\"jkt\":\"STRAY\"}",
        "{\"jkt\":\"GOOD\",\"jkt\":\"GOOD\"}",
        "{\"jkt\":\"GOOD\",\"jwk\":{\"kty\":\"EC\"}}",
        "{\"jwk\":{\"kty\":\"RSA\"},\"x5t#S256\":\"GOOD\"}",
        "{\"x5t#S256\":\"GOOD\",\"x5t#S256\":\"GOOD\"}",
      })
  void whenCnfIsOfAnotherShapeThenTheTokenIsInvalidNotUnbound(String cnf) {
    String value =
        cnf.replace("GOOD", GOOD)
            .replace("SHORT", GOOD.substring(1))
            .replace("STRAY", STRAY_BITS)
            .replace("PLUS", "+" + GOOD.substring(1));
    String token = handWritten("{" + CLAIMS_JSON + ",\"cnf\":" + value + "}");

    for (BearerVerifier any :
        List.of(verifier, verifier(BearerVerifier.builder().requireCertificateBinding(true)))) {
      assertEquals(
          UnauthenticatedException.INVALID_TOKEN, refusal(any, token, CLIENT).getMessage());
    }
  }

  @Test
  void whenCnfIsNamedTwiceThenTheTokenIsInvalid() {
    String cnf = "\"cnf\":{\"x5t#S256\":\"" + GOOD + "\"}";
    String token = handWritten("{" + CLAIMS_JSON + "," + cnf + "," + cnf + "}");

    assertEquals(
        UnauthenticatedException.INVALID_TOKEN, refusal(verifier, token, CLIENT).getMessage());
  }

  @Test
  void whenAHandWrittenCnfIsWellFormedThenTheTokenPassesWithItsCertificate() {
    String token = handWritten("{" + CLAIMS_JSON + ",\"cnf\":{\"x5t#S256\":\"" + GOOD + "\"}}");

    verifier.verifyToken(token, CLIENT, List.of());
    refusal(verifier, token, SELF_SIGNED);
  }

  @Test
  void whenAThumbprintIsTakenThenItIsTheUnpaddedBase64urlSha256OfTheDer() throws Exception {
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(CLIENT.getEncoded());

    assertEquals(Base64.getUrlEncoder().withoutPadding().encodeToString(digest), GOOD);
    assertEquals(43, GOOD.length());
    assertTrue(CertificateThumbprint.matches(GOOD, CLIENT));
    assertFalse(CertificateThumbprint.matches(GOOD, SAME_NAME));
    assertFalse(CertificateThumbprint.matches(STRAY_BITS, CLIENT));
    assertFalse(CertificateThumbprint.matches(GOOD + "=", CLIENT));
  }

  private static String handWritten(String claims) {
    return TestTokens.signedBytes(
        HEADER_JSON.getBytes(StandardCharsets.UTF_8),
        claims.getBytes(StandardCharsets.UTF_8),
        KEYS.getPrivate());
  }
}
