package dev.platform.identity.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.jose.LimitedBody;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.verify.StubServer;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 36 item 9: the token client reads at most 64 KiB of an answer and follows no redirect,
 * against a real stub service on 127.0.0.1.
 */
class TokenClientLimitsTest {
  static final String ID = "3f2b8c1e-9a4d-4e5f-8b6a-7c9d0e1f2a3b";
  static final String TOKEN =
      "{\"access_token\":\"t\",\"token_type\":\"Bearer\",\"expires_in\":3600";

  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final List<Duration> waits = new CopyOnWriteArrayList<>();
  volatile StubServer.Reply reply = new StubServer.Reply(200, Map.of(), TOKEN + "}");
  StubServer stub;

  @BeforeEach
  void start() throws IOException {
    stub = StubServer.start("/oauth/token", request -> reply);
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  TokenClient.Builder builder() {
    return TokenClient.builder()
        .baseUrl(stub.uri())
        .credentials(ID, "secret")
        .clock(clock)
        .sleeper(waits::add);
  }

  /** A token answer padded with spaces to {@code bytes} bytes in all. */
  static String padded(int bytes) {
    return TOKEN + " ".repeat(bytes - TOKEN.length() - 1) + "}";
  }

  @Test
  void whenTheAnswerIsOneMegabyteThenItFailsForGoodNamingTheCap() {
    reply = new StubServer.Reply(200, Map.of(), padded(1024 * 1024));

    TokenClientException failure =
        assertTimeoutPreemptively(
            Duration.ofSeconds(30),
            () -> assertThrows(TokenClientException.class, () -> builder().build().token()));

    assertEquals(200, failure.status());
    assertTrue(failure.getMessage().contains("65536 bytes (64 KiB)"), failure.getMessage());
    assertEquals(
        65536, assertInstanceOfTooLarge(failure.getCause()).maxBytes(), "LimitedBody's cap");
    assertEquals(1, stub.requests(), "not retried: a second try would get the same answer");
    assertTrue(waits.isEmpty());
  }

  private static LimitedBody.TooLargeException assertInstanceOfTooLarge(Throwable cause) {
    return org.junit.jupiter.api.Assertions.assertInstanceOf(
        LimitedBody.TooLargeException.class, cause);
  }

  @Test
  void whenAnErrorAnswerIsOneMegabyteThenItFailsNamingTheCapToo() {
    reply = new StubServer.Reply(503, Map.of(), " ".repeat(1024 * 1024));

    TokenClientException failure =
        assertThrows(TokenClientException.class, () -> builder().build().token());

    assertEquals(503, failure.status());
    assertTrue(failure.getMessage().contains("64 KiB"), failure.getMessage());
    assertEquals(1, stub.requests());
  }

  @Test
  void whenTheAnswerIsExactly64KiBThenItIsRead() {
    reply = new StubServer.Reply(200, Map.of(), padded(TokenClient.MAX_RESPONSE_BYTES));

    assertEquals("t", builder().build().token());
  }

  @Test
  void whenTheServiceAnswers302ThenItIsNotFollowedAndTheRequestFails() throws IOException {
    try (StubServer elsewhere =
        StubServer.start(
            "/oauth/token", request -> new StubServer.Reply(200, Map.of(), TOKEN + "}"))) {
      reply = new StubServer.Reply(302, Map.of("Location", elsewhere.uri() + "/oauth/token"), "");

      TokenClientException failure =
          assertThrows(TokenClientException.class, () -> builder().build().token());

      assertEquals(302, failure.status());
      assertEquals(1, stub.requests());
      assertEquals(0, elsewhere.requests(), "the credentials went nowhere else");
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = HttpClient.Redirect.class,
      names = {"NORMAL", "ALWAYS"})
  void whenTheCallersHttpClientFollowsRedirectsThenTheBuildIsRefused(HttpClient.Redirect policy) {
    HttpClient following = HttpClient.newBuilder().followRedirects(policy).build();

    IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> builder().httpClient(following).build());

    assertTrue(refused.getMessage().contains("follows redirects (" + policy + ")"));
    assertEquals(0, stub.requests());
  }

  @Test
  void whenTheCallersHttpClientFollowsNoRedirectThenItIsUsed() {
    HttpClient never = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    assertEquals("t", builder().httpClient(never).build().token());
  }
}
