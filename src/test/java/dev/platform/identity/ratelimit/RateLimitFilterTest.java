package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.key.MutableClock;
import dev.platform.identity.token.OAuthError;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The filter's budget key: the client the token endpoint authenticates, found the same way. */
class RateLimitFilterTest {
  static final String FORM = "application/x-www-form-urlencoded";
  static final String ID = "4bb5e3c2-7d1a-4f0e-9c3b-2a1d0e9f8a7b";
  static final String GRANT = "grant_type=client_credentials&";
  static final String SECRET = "&client_secret=s3cret";
  static final String HOME = "10.1.1.1";

  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));
  final RateLimiter limiter =
      new RateLimiter(new MemoryBuckets(new ClockTime(clock), 1000), RateLimiter.SPEC_PER_MINUTE);

  static String basic(String userPass) {
    return "Basic " + Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8));
  }

  /** A form body and an Authorization header (or null). */
  record Way(String body, String authorization) {
    String key() {
      return RateLimitFilter.clientKey(body, FORM, authorization, null);
    }
  }

  /** Every way of naming the client {@link #ID} that the token endpoint accepts. */
  static List<Way> waysToName() {
    String upper = ID.toUpperCase(Locale.ROOT);
    return List.of(
        new Way(GRANT + "client_id=" + ID + SECRET, null),
        new Way(GRANT + "client_id=&client_id=" + ID + SECRET, null),
        new Way(GRANT + "client_id=" + ID + "&client_id=" + SECRET, null),
        new Way(GRANT + "client_id=" + upper + SECRET, null),
        new Way(GRANT + "client_id=%34" + ID.substring(1) + SECRET, null),
        new Way(GRANT + "client_id=%34%62%62" + upper.substring(3) + SECRET, null),
        new Way(GRANT + "client%5Fid=" + ID + SECRET, null),
        new Way(GRANT + "client%5fid=&client_id=" + upper + SECRET, null),
        new Way(GRANT, basic(ID + ":s3cret")),
        new Way(GRANT + "client_id=", basic(upper + ":s3cret")),
        new Way(GRANT + "client_id=&client_secret=", basic("%34" + ID.substring(1) + ":s3cret")));
  }

  @Test
  void whenOneClientIsNamedInEveryWayTheEndpointAcceptsThenEveryWayHasItsOneKey() {
    for (Way way : waysToName()) {
      assertEquals(ID, way.key(), way.toString());
    }
  }

  @Test
  void whenOneClientIsNamedInEveryWayThenAllTheWaysShareItsSixtyAMinute() {
    List<Way> ways = waysToName();
    int admitted = 0;
    for (int i = 0; i < 3 * RateLimiter.SPEC_PER_MINUTE; i++) {
      Admission admission = limiter.admit(ways.get(i % ways.size()).key(), HOME);
      if (admission.admitted()) {
        limiter.settle(admission, 200);
        admitted++;
      }
    }

    assertEquals(RateLimiter.SPEC_PER_MINUTE, admitted);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        GRANT + "client_id=" + ID + "&client_id=" + ID + SECRET,
        GRANT + "client_id=" + ID + "&client_id=4BB5E3C2-7D1A-4F0E-9C3B-2A1D0E9F8A7B" + SECRET,
        GRANT + "client_id=" + ID + "&client%5Fid=" + ID + SECRET,
        GRANT + "client_id=" + ID + "&client_id=00000000-0000-4000-8000-000000000001" + SECRET,
        GRANT + "client_id=" + ID + SECRET + "&client_secret=other",
        GRANT + "client_id=%zz" + ID + SECRET,
        GRANT + "client_id=%C0%AF" + SECRET,
      })
  void whenTheRequestIsAmbiguousOrMalformedThenTheEndpointsInvalidRequest(String body) {
    OAuthError refusal =
        assertThrows(OAuthError.class, () -> RateLimitFilter.clientKey(body, FORM, null, null));

    assertEquals(400, refusal.status());
    assertEquals(OAuthError.INVALID_REQUEST, refusal.error());
  }

  @Test
  void whenBasicAndFormBothNameAClientThenTheEndpointsInvalidRequest() {
    OAuthError refusal =
        assertThrows(
            OAuthError.class,
            () ->
                RateLimitFilter.clientKey(
                    GRANT + "client_id=" + ID, FORM, basic(ID + ":s3cret"), null));

    assertEquals(OAuthError.INVALID_REQUEST, refusal.error());
    assertThrows(
        OAuthError.class,
        () ->
            RateLimitFilter.clientKey(GRANT + "client_id=" + ID + SECRET, FORM, "Basic !!", null));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "client_id=+" + ID,
        "client_id=" + ID + "+",
        "client_id=%20" + ID,
        "client_id=4bb5e3c27d1a4f0e9c3b2a1d0e9f8a7b",
        "client_id=%7B" + ID + "%7D",
        "client_id=4-1-1-1-1",
        "client_id=not-a-client",
      })
  void whenTheClientIdIsNotAUuidThenItNamesNoAccountAndNoClientBudget(String clientId) {
    assertNull(RateLimitFilter.clientKey(GRANT + clientId + SECRET, FORM, null, null));
  }
}
