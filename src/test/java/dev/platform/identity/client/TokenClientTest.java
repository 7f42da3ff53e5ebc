package dev.platform.identity.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.MutableClock;
import dev.platform.identity.verify.StallingServer;
import dev.platform.identity.verify.StubServer;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The token client against a stub identity service on 127.0.0.1; time moves, nothing sleeps. */
class TokenClientTest {
  static final String ID = "3f2b8c1e-9a4d-4e5f-8b6a-7c9d0e1f2a3b";
  static final String SECRET = "se:cr+et%/é";

  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final List<String> authorizations = new CopyOnWriteArrayList<>();
  final List<String> bodies = new CopyOnWriteArrayList<>();
  final List<Duration> waits = new CopyOnWriteArrayList<>();
  volatile IntFunction<Reply> replies = n -> Reply.token("t" + n, 3600);
  StubServer stub;

  record Reply(int status, String body, String retryAfter) {
    static Reply token(String value, long expiresIn) {
      return new Reply(
          200,
          "{\"access_token\":\""
              + value
              + "\",\"token_type\":\"Bearer\",\"expires_in\":"
              + expiresIn
              + "}",
          null);
    }

    StubServer.Reply toStub() {
      return new StubServer.Reply(
          status, retryAfter == null ? Map.of() : Map.of("Retry-After", retryAfter), body);
    }
  }

  @BeforeEach
  void start() throws IOException {
    stub =
        StubServer.start(
            "/oauth/token",
            request -> {
              authorizations.add(String.valueOf(request.authorization()));
              bodies.add(request.body());
              return replies.apply(request.number()).toStub();
            });
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  TokenClient.Builder builder() {
    return TokenClient.builder()
        .baseUrl(stub.uri())
        .credentials(ID, SECRET)
        .clock(clock)
        .sleeper(waits::add)
        .jitter(new Random(7));
  }

  @Test
  void whenTheTokenIsFreshThenItIsServedFromMemory() {
    TokenClient client = builder().build();

    for (int i = 0; i < 10; i++) {
      assertEquals("t1", client.token());
    }

    assertEquals(1, stub.requests());
  }

  @Test
  void whenLessThanFiveMinutesRemainThenItIsRenewed() {
    TokenClient client = builder().build();
    client.token();

    clock.advance(Duration.ofSeconds(3600 - 301));
    assertEquals("t1", client.token());
    clock.advance(Duration.ofSeconds(2));
    assertEquals("t2", client.token());
    assertEquals(2, stub.requests());
  }

  @Test
  void whenFiftyCallersMeetTheRenewalThenOneRequestIsMadeAndTheOthersKeepTheValidToken()
      throws Exception {
    TokenClient client = builder().build();
    client.token();
    clock.advance(Duration.ofSeconds(3600 - 200));
    stub.hold();
    CountDownLatch served = new CountDownLatch(49);
    AtomicInteger returned = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(50);
    List<CompletableFuture<String>> callers = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      callers.add(
          CompletableFuture.supplyAsync(
              () -> {
                String token = client.token();
                returned.incrementAndGet();
                served.countDown();
                return token;
              },
              pool));
    }

    // The renewal is held at the stub until the other 49 have been answered without it.
    assertTrue(stub.awaitArrival(Duration.ofSeconds(10)), "the renewal request reached the stub");
    assertTrue(served.await(10, TimeUnit.SECONDS), "49 callers answered while one renews");
    // A caller counts itself before its future completes, so count returns, not done futures.
    assertEquals(49, returned.get(), "the renewing caller is still held");
    stub.release();
    List<String> got = new ArrayList<>();
    for (CompletableFuture<String> caller : callers) {
      got.add(caller.get(10, TimeUnit.SECONDS));
    }
    pool.shutdown();

    assertEquals(2, stub.requests());
    assertEquals(49, got.stream().filter("t1"::equals).count(), got.toString());
    assertEquals(1, got.stream().filter("t2"::equals).count(), got.toString());
    assertEquals("t2", client.token());
  }

  @Test
  void whenThereIsNoValidTokenThenConcurrentCallersShareOneRequest() throws Exception {
    TokenClient client = builder().build();
    stub.hold();
    ExecutorService pool = Executors.newFixedThreadPool(20);
    List<CompletableFuture<String>> callers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      callers.add(CompletableFuture.supplyAsync(client::token, pool));
    }
    assertTrue(stub.awaitArrival(Duration.ofSeconds(10)), "the first fetch reached the stub");
    assertTrue(callers.stream().noneMatch(CompletableFuture::isDone), "all wait for that fetch");
    stub.release();
    for (CompletableFuture<String> caller : callers) {
      assertEquals("t1", caller.get(10, TimeUnit.SECONDS));
    }
    pool.shutdown();

    assertEquals(1, stub.requests());
  }

  @Test
  void whenAnApiAnswers401ThenTheTokenIsDroppedAndANewOneFetched() {
    TokenClient client = builder().build();
    String first = client.token();

    client.reportUnauthorized("some-other-token");
    assertEquals(first, client.token());
    client.reportUnauthorized(first);

    assertNotEquals(first, client.token());
    assertEquals(2, stub.requests());
  }

  @Test
  void whenTheServiceAnswers429ThenTheClientWaitsRetryAfter() {
    replies =
        n ->
            n == 1
                ? new Reply(429, "{\"error\":\"rate_limit_exceeded\",\"retry_after\":7}", "7")
                : Reply.token("t" + n, 3600);

    assertEquals("t2", builder().build().token());

    assertEquals(List.of(Duration.ofSeconds(7)), waits);
  }

  @Test
  void whenTheServiceAsksToRetryAfterDaysThenTheWaitIsCappedAtFiveMinutes() {
    replies =
        n ->
            n == 1
                ? new Reply(
                    429, "{\"error\":\"rate_limit_exceeded\",\"retry_after\":999999}", "999999")
                : Reply.token("t" + n, 3600);

    assertEquals("t2", builder().build().token());

    assertEquals(List.of(Duration.ofMinutes(5)), waits);
  }

  @Test
  void whenOnlyTheRetryAfterHeaderAsksForDaysThenTheWaitIsCappedToo() {
    replies =
        n ->
            n == 1
                ? new Reply(429, "{\"error\":\"rate_limit_exceeded\"}", "999999")
                : Reply.token("t" + n, 3600);

    assertEquals("t2", builder().build().token());

    assertEquals(List.of(Duration.ofMinutes(5)), waits);
  }

  @Test
  void whenTheRetryAfterCapIsSetThenLongerWaitsAreCutToIt() {
    replies =
        n ->
            n == 1
                ? new Reply(429, "{\"error\":\"rate_limit_exceeded\",\"retry_after\":120}", "120")
                : Reply.token("t" + n, 3600);

    assertEquals("t2", builder().maxRetryAfter(Duration.ofSeconds(30)).build().token());

    assertEquals(List.of(Duration.ofSeconds(30)), waits);
  }

  @Test
  void whenTheServiceStallsMidBodyThenTheRequestFailsByItsDeadline() throws Exception {
    Duration deadline = Duration.ofMillis(300);
    try (StallingServer stub =
        StallingServer.start(n -> StallingServer.Reply.stalling(200, 4096, "{\"access_"))) {
      TokenClient client =
          TokenClient.builder()
              .baseUrl(stub.uri())
              .credentials(ID, SECRET)
              .clock(clock)
              .sleeper(waits::add)
              .retries(1, Duration.ofMillis(200), Duration.ofSeconds(1))
              .requestTimeout(deadline)
              .build();

      // Loose for a loaded machine; without a deadline over the body the call never returns.
      TokenClientException failure =
          assertTimeoutPreemptively(
              deadline.multipliedBy(10),
              () -> assertThrows(TokenClientException.class, client::token));

      assertEquals(0, failure.status());
      assertInstanceOf(HttpTimeoutException.class, failure.getCause());
      assertTrue(stub.awaitHangUp(Duration.ofSeconds(3)), "the connection is closed, not left");
    }
  }

  @Test
  void whenTheServiceFailsWith5xxThenBackoffIsExponentialBoundedAndFinallyFails() {
    replies = n -> new Reply(503, "{\"error\":\"server_error\"}", null);
    TokenClient client =
        builder().retries(5, Duration.ofMillis(200), Duration.ofSeconds(1)).build();

    TokenClientException failure = assertThrows(TokenClientException.class, client::token);

    assertEquals(503, failure.status());
    assertEquals("server_error", failure.error());
    assertEquals(5, stub.requests());
    assertEquals(4, waits.size());
    for (int i = 0; i < waits.size(); i++) {
      long step = Math.min(200L << i, 1000);
      long millis = waits.get(i).toMillis();
      assertTrue(millis >= step / 2 && millis <= step, "wait " + i + ": " + millis);
    }
  }

  @Test
  void whenTheServiceRefusesForGoodThenNoRetryAndTheErrorIsCarried() {
    replies =
        n ->
            new Reply(
                400,
                "{\"error\":\"invalid_scope\",\"error_description\":\"scope 'x:y' is unknown\"}",
                null);

    TokenClientException failure =
        assertThrows(TokenClientException.class, () -> builder().build().token());

    assertEquals(400, failure.status());
    assertEquals("invalid_scope", failure.error());
    assertEquals("scope 'x:y' is unknown", failure.description());
    assertEquals(1, stub.requests());
    assertTrue(waits.isEmpty());
  }

  @Test
  void whenSomethingBetweenAnswers400WithoutAnOAuthErrorThenTheMessageSaysWhatCame() {
    replies = n -> new Reply(400, "<html><body>Bad\r\nRequest</body></html>", null);

    TokenClientException failure =
        assertThrows(TokenClientException.class, () -> builder().build().token());

    assertEquals(400, failure.status());
    assertEquals(null, failure.error());
    assertTrue(
        failure.description().startsWith("not the service's error answer: "),
        failure.description());
    assertTrue(
        failure.description().endsWith("bytes: <html><body>Bad  Request</body></html>"),
        failure.description());
    assertEquals(1, stub.requests());
  }

  @Test
  void whenCredentialsAreSentThenBasicIsFormEncodedAndPostPutsThemInTheBody() {
    builder().scopes(List.of("catalog:*", "kitchen:menus.read")).build().token();
    builder().clientSecretPost().build().token();

    String basic =
        new String(
            Base64.getDecoder().decode(authorizations.get(0).substring("Basic ".length())),
            StandardCharsets.UTF_8);
    assertEquals(ID + ":se%3Acr%2Bet%25%2F%C3%A9", basic);
    assertEquals(
        "grant_type=client_credentials&scope=catalog%3A*+kitchen%3Amenus.read", bodies.get(0));
    assertEquals("null", authorizations.get(1));
    assertTrue(bodies.get(1).contains("client_id=" + ID));
    assertTrue(bodies.get(1).contains("client_secret=se%3Acr%2Bet%25%2F%C3%A9"));
  }

  @Test
  void whenShownThenNeitherTheSecretNorTheTokenAppears() {
    TokenClient client = builder().build();
    String token = client.token();

    assertFalse(client.toString().contains(SECRET));
    assertFalse(client.toString().contains(token));
    assertFalse(builder().toString().contains(SECRET));
  }

  @Test
  void whenTheSecretSupplierAnswersANewSecretThenTheNextRenewalSendsIt() {
    java.util.concurrent.atomic.AtomicReference<String> vault =
        new java.util.concurrent.atomic.AtomicReference<>("old-secret");
    TokenClient client = builder().credentials(ID, vault::get).clientSecretPost().build();
    client.token();
    vault.set("new-secret");
    client.token();
    assertEquals(1, stub.requests(), "a fresh token is served from memory");

    clock.advance(Duration.ofMinutes(56));
    client.token();

    assertEquals(2, stub.requests());
    assertTrue(bodies.get(0).contains("client_secret=old-secret"), bodies.get(0));
    assertTrue(bodies.get(1).contains("client_secret=new-secret"), bodies.get(1));
  }

  @Test
  void whenTheSecretSupplierFailsAtARenewalThenTheValidTokenIsKept() {
    List<String> answers = new CopyOnWriteArrayList<>(List.of("old-secret"));
    TokenClient client =
        builder().credentials(ID, () -> answers.isEmpty() ? null : answers.get(0)).build();
    String token = client.token();
    answers.clear();
    clock.advance(Duration.ofMinutes(56));

    assertEquals(token, client.token());
    assertEquals(1, stub.requests());
    clock.advance(Duration.ofMinutes(5));
    TokenClientException failure = assertThrows(TokenClientException.class, client::token);
    assertEquals("the client secret supplier gave no secret", failure.description());
  }
}
