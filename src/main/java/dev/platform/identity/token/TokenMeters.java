package dev.platform.identity.token;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The token path's meters, registered once so that counting a request allocates nothing. Token
 * requests are counted by {@code outcome}: {@code issued}, or the SPEC 7.1 {@code error} the client
 * was sent ({@code rate_limit_exceeded} and {@code server_error} included). No label holds a
 * client_id or anything else a caller chooses.
 */
public final class TokenMeters {
  static final String ISSUED = "issued";
  static final String SERVER_ERROR = "server_error";

  /** Every outcome; each gets its counter up front. */
  static final List<String> OUTCOMES =
      List.of(
          ISSUED,
          OAuthError.INVALID_REQUEST,
          OAuthError.INVALID_CLIENT,
          OAuthError.INVALID_SCOPE,
          OAuthError.UNSUPPORTED_GRANT_TYPE,
          OAuthError.RATE_LIMIT_EXCEEDED,
          SERVER_ERROR);

  private final Map<String, Counter> requests = new HashMap<>();
  private final Map<ClientAuthentication, Counter> authenticated =
      new EnumMap<>(ClientAuthentication.class);
  private final Map<ClientAuthentication, Counter> unauthenticated =
      new EnumMap<>(ClientAuthentication.class);
  private final Timer latency;
  private final Timer signatures;
  private final Counter active;
  private final Counter inactive;

  public TokenMeters(MeterRegistry registry) {
    for (String outcome : OUTCOMES) {
      requests.put(
          outcome,
          Counter.builder("identity.token.requests")
              .description("Token requests by outcome: issued, or the OAuth error answered")
              .tag("outcome", outcome)
              .register(registry));
    }
    for (ClientAuthentication method : ClientAuthentication.values()) {
      authenticated.put(method, authentications(registry, method, "success"));
      unauthenticated.put(method, authentications(registry, method, "failure"));
    }
    latency =
        Timer.builder("identity.token.request.duration")
            .description("Time the token servlet took, from the body read to the answer written")
            .serviceLevelObjectives(
                Duration.ofMillis(5),
                Duration.ofMillis(10),
                Duration.ofMillis(25),
                Duration.ofMillis(50),
                Duration.ofMillis(100),
                Duration.ofMillis(250))
            .register(registry);
    signatures =
        Timer.builder("identity.token.signature.duration")
            .description("Time of the RS256 signature of one token")
            .register(registry);
    active = introspections(registry, "active");
    inactive = introspections(registry, "inactive");
  }

  private static Counter introspections(MeterRegistry registry, String result) {
    return Counter.builder("identity.token.introspections")
        .description("Introspection answers (RFC 7662) by result: active, inactive")
        .tag("result", result)
        .register(registry);
  }

  private static Counter authentications(
      MeterRegistry registry, ClientAuthentication method, String result) {
    return Counter.builder("identity.token.client.authentications")
        .description("Client authentications at the token endpoint, by method and result")
        .tag("method", method.wireName())
        .tag("result", result)
        .register(registry);
  }

  /** Meters that count nothing: for tests and benchmarks that wire no registry. */
  public static TokenMeters none() {
    return new TokenMeters(new CompositeMeterRegistry());
  }

  void issued() {
    requests.get(ISSUED).increment();
  }

  /** One request refused with SPEC 7.1's {@code error}. */
  public void refused(String error) {
    Counter counter = requests.get(error);
    (counter == null ? requests.get(SERVER_ERROR) : counter).increment();
  }

  /** One client authentication by {@code method}, proven or not. */
  void authenticated(ClientAuthentication method, boolean proven) {
    (proven ? authenticated : unauthenticated).get(method).increment();
  }

  void failed() {
    requests.get(SERVER_ERROR).increment();
  }

  /** The time since {@code startNanos} ({@link System#nanoTime}) of one answered request. */
  void answered(long startNanos) {
    latency.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
  }

  /** One introspection answered {@code active: true} or {@code false}. */
  void introspected(boolean isActive) {
    (isActive ? active : inactive).increment();
  }

  void signed(long startNanos) {
    signatures.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
  }
}
