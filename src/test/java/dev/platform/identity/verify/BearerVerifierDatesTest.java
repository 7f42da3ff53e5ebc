package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26: {@code exp}, {@code nbf} and {@code iat} only as RFC 7519 NumericDates (JSON numbers of
 * seconds), and no {@code exp} beyond the longest token lifetime. The claims are written as raw
 * JSON, since JJWT's builder would turn any date it is given into a number.
 */
class BearerVerifierDatesTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final long NOW_SECONDS = NOW.getEpochSecond();
  private static final long IN_AN_HOUR = NOW_SECONDS + 3600;

  private final BearerVerifier verifier = verifier(BearerVerifier.builder());

  private static BearerVerifier verifier(BearerVerifier.Builder builder) {
    return builder
        .issuer(ISSUER)
        .clock(CLOCK)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .build();
  }

  /** A genuine token whose payload has these raw JSON values for exp, nbf and iat. */
  private static String token(String exp, String nbf, String iat) {
    String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"" + KID + "\"}";
    String claims =
        "{\"iss\":\""
            + ISSUER
            + "\",\"sub\":\""
            + CLIENT_ID
            + "\",\"client_id\":\""
            + CLIENT_ID
            + "\",\"scopes\":[\"catalog:products.view\"],\"exp\":"
            + exp
            + ",\"nbf\":"
            + nbf
            + ",\"iat\":"
            + iat
            + "}";
    String signed = base64url(header) + "." + base64url(claims);
    return signed + "." + signature(signed);
  }

  private static String tokenWithExp(String exp) {
    return token(exp, Long.toString(NOW_SECONDS - 60), Long.toString(NOW_SECONDS - 60));
  }

  private static String base64url(String text) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String signature(String signed) {
    try {
      Signature rsa = Signature.getInstance("SHA256withRSA");
      rsa.initSign(KEYS.getPrivate());
      rsa.update(signed.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private String refusal(String token) {
    return assertThrows(
            UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()))
        .getMessage();
  }

  @Test
  void whenTheDatesAreJsonNumbersOfSecondsThenAccepted() {
    VerifiedToken token = verifier.verifyToken(tokenWithExp(Long.toString(IN_AN_HOUR)), List.of());

    assertEquals(NOW.plusSeconds(3600), token.expiresAt());
    assertEquals(Optional.of(NOW.minusSeconds(60)), token.issuedAt());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"2025-03-01T13:00:00Z\"", // ISO-8601, which JJWT alone accepts
        "\"1740834000\"", // a number in a string, which JJWT alone accepts
        "true",
        "[1740834000]",
        "{\"seconds\":1740834000}",
        "-1",
        "1e300"
      })
  void whenExpIsNoNumericDateThenInvalid(String exp) {
    assertEquals("invalid token", refusal(tokenWithExp(exp)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"2025-03-01T11:59:00Z\"", "\"1740830340\""})
  void whenNbfIsAStringThenInvalid(String date) {
    String exp = Long.toString(IN_AN_HOUR);

    assertEquals("invalid token", refusal(token(exp, date, Long.toString(NOW_SECONDS - 60))));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"2025-03-01T11:59:00Z\"", "\"1740830340\""})
  void whenIatIsAStringThenInvalid(String date) {
    String exp = Long.toString(IN_AN_HOUR);

    assertEquals("invalid token", refusal(token(exp, Long.toString(NOW_SECONDS - 60), date)));
  }

  @Test
  void whenExpIsInMillisecondsThenInvalid() {
    assertEquals("invalid token", refusal(tokenWithExp(Long.toString(IN_AN_HOUR * 1000))));
  }

  @Test
  void whenExpIsBeyondTheLongestLifetimeAndSkewThenInvalid() {
    long limit = NOW_SECONDS + Duration.ofHours(24).plusSeconds(60).toSeconds();

    assertEquals(CLIENT_ID, verifier.verifyToken(tokenWithExp("" + limit), List.of()).clientId());
    assertEquals("invalid token", refusal(tokenWithExp("" + (limit + 1))));
  }

  @Test
  void whenTheLongestLifetimeIsSetThenItBoundsExp() {
    BearerVerifier hourly =
        verifier(BearerVerifier.builder().maxTokenLifetime(Duration.ofHours(1)));
    String token = tokenWithExp(Long.toString(IN_AN_HOUR + 61));

    assertEquals(CLIENT_ID, verifier.verifyToken(token, List.of()).clientId());
    assertThrows(UnauthenticatedException.class, () -> hourly.verifyToken(token, List.of()));
  }

  @Test
  void whenExpHasAFractionThenItIsFloored() {
    BearerVerifier strict =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(Clock.fixed(NOW.plusMillis(10_500), ZoneOffset.UTC))
            .keyLocator(kid -> Optional.of(KEYS.getPublic()))
            .allowedClockSkew(Duration.ZERO)
            .build();
    String token = tokenWithExp((NOW_SECONDS + 10) + ".9");

    assertEquals(
        NOW.plusSeconds(3600),
        verifier.verifyToken(tokenWithExp(IN_AN_HOUR + ".75"), List.of()).expiresAt());
    assertEquals(
        "token expired",
        assertThrows(UnauthenticatedException.class, () -> strict.verifyToken(token, List.of()))
            .getMessage());
  }

  @Test
  void whenTheLongestLifetimeIsZeroOrNegativeThenTheBuilderRefusesIt() {
    BearerVerifier.Builder builder = BearerVerifier.builder();

    assertThrows(IllegalArgumentException.class, () -> builder.maxTokenLifetime(Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class, () -> builder.maxTokenLifetime(Duration.ofSeconds(-1)));
  }
}
