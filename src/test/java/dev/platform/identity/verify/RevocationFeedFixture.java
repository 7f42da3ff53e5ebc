package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.key.MutableClock;
import java.io.IOException;
import java.net.URI;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;

/**
 * What the revocation feed's tests share: a real feed on 127.0.0.1 that answers 304 to its current
 * ETag, tokens signed with a test key, feeds and verifiers built on a clock the test moves. Polls
 * are made by the test ({@link RevocationFeed#poll}), the feed's own thread waiting an hour.
 */
abstract class RevocationFeedFixture {
  static final KeyPair KEYS = TestTokens.rsaKeyPair();
  static final String EMPTY = feed(List.of(), List.of());

  final MutableClock clock = new MutableClock(NOW);
  final List<StubServer.Request> requests = new CopyOnWriteArrayList<>();
  final List<AutoCloseable> closing = new ArrayList<>();
  volatile String body = EMPTY;
  volatile int status = 200;
  volatile String etag = "\"v1\"";
  StubServer server;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable resource : closing) {
      resource.close();
    }
  }

  /** The feed's answer to one poll: 304 when the client holds the current ETag. */
  StubServer.Reply answer(StubServer.Request request) {
    requests.add(request);
    if (status == 200 && etag != null && etag.equals(request.ifNoneMatch())) {
      return new StubServer.Reply(304, Map.of("ETag", etag), "");
    }
    Map<String, String> headers = etag == null ? Map.of() : Map.of("ETag", etag);
    return new StubServer.Reply(status, headers, body);
  }

  URI serve() throws IOException {
    return serve(this::answer);
  }

  URI serve(Function<StubServer.Request, StubServer.Reply> replies) throws IOException {
    server = StubServer.start("/oauth/revocations", replies);
    closing.add(server);
    return server.uri();
  }

  /** A feed of {@code issuer}: polled at build, then only by the test (its thread waits 1 h). */
  RevocationFeed.Builder feedOf(URI issuer) {
    return RevocationFeed.builder()
        .issuer(issuer)
        .clock(clock)
        .refreshInterval(Duration.ofHours(1))
        .maxStaleness(Duration.ofHours(2))
        .connectTimeout(Duration.ofSeconds(1))
        .readTimeout(Duration.ofSeconds(2));
  }

  RevocationFeed built(RevocationFeed.Builder builder) {
    RevocationFeed feed = builder.build();
    closing.add(feed);
    return feed;
  }

  BearerVerifier verifier(RevocationFeed feed, URI issuer) {
    return verifier(feed, issuer, BearerVerifier.builder());
  }

  BearerVerifier verifier(RevocationFeed feed, URI issuer, BearerVerifier.Builder builder) {
    return builder
        .issuer(issuer.toString())
        .clock(clock)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .revocations(feed)
        .build();
  }

  /** A token of {@code issuer} as the issuer makes them, valid at NOW. */
  static String token(URI issuer) {
    return TestTokens.signed(serviceAccount().issuer(issuer.toString()), KEYS.getPrivate());
  }

  static String token(URI issuer, String jti, Instant issuedAt) {
    return TestTokens.signed(
        serviceAccount().issuer(issuer.toString()).id(jti).issuedAt(Date.from(issuedAt)),
        KEYS.getPrivate());
  }

  static String feed(List<String> jtis, List<String> accounts) {
    return feedOf(ISSUER_PLACEHOLDER, jtis, accounts);
  }

  static final String ISSUER_PLACEHOLDER = "@ISSUER@";

  static String feedOf(String issuer, List<String> jtis, List<String> accounts) {
    StringBuilder json = new StringBuilder("{\"issuer\":\"" + issuer + "\",\"tokens\":[");
    for (int i = 0; i < jtis.size(); i++) {
      json.append(i == 0 ? "" : ",").append("{\"jti\":\"").append(jtis.get(i));
      json.append("\",\"exp\":1740920400}");
    }
    json.append("],\"accounts\":[").append(String.join(",", accounts)).append("]}");
    return json.toString();
  }

  /** An account entry: tokens of {@code clientId} issued before {@code notBefore} are revoked. */
  static String account(String clientId, Instant notBefore) {
    return "{\"sub_sha256\":\""
        + RevocationList.subjectHash(clientId)
        + "\",\"not_before\":"
        + notBefore.getEpochSecond()
        + ",\"until\":"
        + notBefore.plus(Duration.ofHours(25)).getEpochSecond()
        + "}";
  }

  /** Serves {@code json} with the test server's own address as the issuer. */
  void publish(String json) {
    body = json.replace(ISSUER_PLACEHOLDER, server.uri().toString());
  }

  String refusal(BearerVerifier verifier, String token) {
    return assertThrows(
            UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()))
        .getMessage();
  }
}
