package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.StubServer;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fetch of a client's jwks_uri against a stub HTTPS server on 127.0.0.1, and its URI rules. */
class ClientKeySetFetchTest {
  /** The one refusal of a host that is internal or does not resolve: it names no address. */
  static final String NOT_PUBLIC =
      "jwks_uri must name a host that resolves, and only to public addresses"
          + " (identity/allowPrivateJwksUris allows internal ones)";

  static final String KEYS = "{\"keys\":[{\"kid\":\"a\"},{\"kid\":\"b\"}]}";

  /** The deadline of the stalling tests. */
  static final Duration DEADLINE = Duration.ofMillis(300);

  /** A bound on their calls, loose for a loaded machine; without a deadline they never return. */
  static final Duration BOUND = DEADLINE.multipliedBy(10);

  static final URI REGISTERED = URI.create("https://keys.example/jwks");

  HttpsStub stub;

  /** A stand-in for the JWK-set parser: the body as text, if it starts as a key set does. */
  static String keySet(byte[] body) throws IOException {
    String text = new String(body, StandardCharsets.UTF_8);
    if (!text.startsWith("{\"keys\":[")) {
      throw new IOException("not a key set");
    }
    return text;
  }

  /**
   * A fetch trusting the stub, on 127.0.0.1: private addresses and its port allowed, and a deadline
   * no first TLS handshake on a loaded machine comes near.
   */
  static ClientKeySetFetch.Builder<String> toStub(HttpsStub stub) {
    return ClientKeySetFetch.builder(ClientKeySetFetchTest::keySet)
        .httpClient(HttpsStub.client())
        .allowPrivate(true)
        .ports(Set.of(stub.port()))
        .deadline(Duration.ofSeconds(10));
  }

  static String fetched(ClientKeySetFetch<String> fetch, URI uri) throws Exception {
    try {
      return fetch.start(uri).get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw assertInstanceOf(IOException.class, e.getCause());
    }
  }

  static ClientKeySetFetch.Resolver answering(String... addresses) {
    return host -> {
      InetAddress[] resolved = new InetAddress[addresses.length];
      for (int i = 0; i < addresses.length; i++) {
        resolved[i] = InetAddress.getByName(addresses[i]);
      }
      return resolved;
    };
  }

  @BeforeEach
  void startStub() throws Exception {
    stub = HttpsStub.start();
  }

  @AfterEach
  void closeStub() {
    stub.close();
  }

  @Test
  void whenHttpsAnswers200ThenTheBodyIsParsed() throws Exception {
    stub.answer("/jwks", HttpsStub.whole(200, KEYS, "Content-Type", "application/json"));

    assertEquals(KEYS, fetched(toStub(stub).build(), stub.uri("/jwks")));
    assertEquals(1, stub.requests("/jwks"));
  }

  @Test
  void whenUriIsHttpThenRefusedWithoutARequest() throws Exception {
    try (StubServer plain =
        StubServer.start("/jwks", request -> new StubServer.Reply(200, Map.of(), KEYS))) {
      URI uri = plain.uri().resolve("/jwks");

      IOException refused =
          assertThrows(IOException.class, () -> fetched(toStub(stub).build(), uri));

      assertEquals("jwks_uri must use https", refused.getMessage());
      assertEquals(0, plain.requests());
      IllegalArgumentException atRegistration =
          assertThrows(
              IllegalArgumentException.class,
              () -> ClientKeySetFetch.checkUri(uri, true, Set.of(), answering("8.8.8.8")));
      assertEquals("jwks_uri must use https", atRegistration.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "127.0.0.1",
        "127.8.9.10",
        "192.0.0.1",
        "198.18.0.1",
        "198.19.255.1",
        "240.0.0.1",
        "255.255.255.255",
        "::127.0.0.1",
        "64:ff9b::7f00:1",
        "64:ff9b:1::7f00:1",
        "2002:7f00:1::",
        "2001:0:4136:e378::1",
        "10.0.0.1",
        "172.16.0.1",
        "172.31.255.254",
        "192.168.1.1",
        "169.254.169.254",
        "0.0.0.0",
        "100.64.0.1",
        "100.127.255.254",
        "224.0.0.1",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "fd12:3456::1",
        "ff02::1",
        "::ffff:10.0.0.1"
      })
  void whenHostResolvesToAPrivateAddressThenRefusedUnlessAllowed(String address) throws Exception {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClientKeySetFetch.checkUri(REGISTERED, false, Set.of(), answering(address)));

    assertEquals(NOT_PUBLIC, refused.getMessage());
    assertDoesNotThrow(
        () -> ClientKeySetFetch.checkUri(REGISTERED, true, Set.of(), answering(address)));
  }

  /** {@code InetAddress.getByName} turns ::ffff:a.b.c.d into IPv4; a resolver may not. */
  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.1", "127.0.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0"})
  void whenAddressIsTheIpv4MappedFormOfAPrivateOneThenRefused(String ipv4) throws Exception {
    byte[] mapped = new byte[16];
    mapped[10] = (byte) 0xff;
    mapped[11] = (byte) 0xff;
    System.arraycopy(InetAddress.getByName(ipv4).getAddress(), 0, mapped, 12, 4);
    InetAddress address = Inet6Address.getByAddress(null, mapped, -1);

    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ClientKeySetFetch.checkUri(
                    REGISTERED, false, Set.of(), host -> new InetAddress[] {address}));

    assertEquals(NOT_PUBLIC, refused.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "8.8.8.8",
        "93.184.216.34",
        "100.63.255.255",
        "100.128.0.1",
        "172.32.0.1",
        "192.169.0.1",
        "198.20.0.1",
        "192.0.2.1",
        "223.255.255.1",
        "2606:4700:4700::1111"
      })
  void whenEveryAddressIsPublicThenAccepted(String address) {
    assertDoesNotThrow(
        () -> ClientKeySetFetch.checkUri(REGISTERED, false, Set.of(), answering(address)));
  }

  @Test
  void whenOneAddressAmongPublicOnesIsPrivateThenRefused() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ClientKeySetFetch.checkUri(
                    REGISTERED, false, Set.of(), answering("8.8.8.8", "10.0.0.1", "1.1.1.1")));

    assertEquals(NOT_PUBLIC, refused.getMessage());
  }

  @Test
  void whenHostDoesNotResolveOrUriHasNoHostThenRefused() {
    ClientKeySetFetch.Resolver unknown =
        host -> {
          throw new UnknownHostException(host);
        };

    assertEquals(
        NOT_PUBLIC,
        assertThrows(
                IllegalArgumentException.class,
                () -> ClientKeySetFetch.checkUri(REGISTERED, false, Set.of(), unknown))
            .getMessage());
    assertEquals(
        "jwks_uri must name a host, with no user info",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ClientKeySetFetch.checkUri(
                        URI.create("https:///jwks"), true, Set.of(), unknown))
            .getMessage());
  }

  /** Issue 36 item 10: not another service of a public host; refused before any DNS look-up. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://keys.example:22/jwks",
        "https://keys.example:0/jwks",
        "https://keys.example:65536/jwks",
        "https://keys.example:8443/jwks",
        "https://keys.example:444/jwks",
        "https://[2606:4700:4700::1111]:22/jwks",
        "HTTPS://keys.example:22/jwks"
      })
  void whenUriNamesAPortBesides443ThenRefusedWithoutALookup(String text) {
    AtomicInteger lookups = new AtomicInteger();
    ClientKeySetFetch.Resolver counted =
        host -> {
          lookups.incrementAndGet();
          return answering("8.8.8.8").resolve(host);
        };

    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClientKeySetFetch.checkUri(URI.create(text), true, Set.of(), counted));

    assertEquals(
        "jwks_uri must use port 443 (identity/jwksUriPorts allows others)", refused.getMessage());
    assertEquals(0, lookups.get());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://keys.example/jwks",
        "https://keys.example:443/jwks",
        "https://[2606:4700:4700::1111]:443/jwks",
        "https://[2606:4700:4700::1111]/jwks"
      })
  void whenUriNamesPort443OrNoneThenAccepted(String text) {
    assertDoesNotThrow(
        () -> ClientKeySetFetch.checkUri(URI.create(text), false, Set.of(), answering("8.8.8.8")));
  }

  @Test
  void whenAPortIsAllowedThenItIsTakenAndOthersStillRefused() {
    Set<Integer> allowed = Set.of(8443);

    assertDoesNotThrow(
        () ->
            ClientKeySetFetch.checkUri(
                URI.create("https://keys.example:8443/jwks"),
                false,
                allowed,
                answering("8.8.8.8")));
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ClientKeySetFetch.checkUri(
                    URI.create("https://keys.example:22/jwks"),
                    false,
                    allowed,
                    answering("8.8.8.8")));
    assertEquals(
        "jwks_uri must use port 443 or one of [8443] (identity/jwksUriPorts allows others)",
        refused.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://a@keys.example:22/jwks",
        "https://a:b@keys.example/jwks",
        "https://@keys.example/"
      })
  void whenUriHasUserInfoThenRefused(String text) {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ClientKeySetFetch.checkUri(
                    URI.create(text), true, Set.of(8443, 22), answering("8.8.8.8")));

    assertEquals("jwks_uri must name a host, with no user info", refused.getMessage());
  }

  /** The port is checked again at each fetch: a URL stored before the rule is refused there. */
  @Test
  void whenFetchedPortIsNotAllowedThenRefusedBeforeAnyRequest() throws Exception {
    stub.answer("/jwks", HttpsStub.whole(200, KEYS));
    ClientKeySetFetch<String> fetch = toStub(stub).ports(Set.of()).build();

    IOException refused = assertThrows(IOException.class, () -> fetched(fetch, stub.uri("/jwks")));

    assertTrue(refused.getMessage().startsWith("jwks_uri must use port 443"), refused.getMessage());
    assertEquals(0, stub.requests("/jwks"));
  }

  /** Issue 36 item 14: no HTTP client (and no selector thread) until the first fetch. */
  @Test
  void whenNothingWasFetchedThenNoHttpClientIsMadeAndCloseEndsFetching() throws Exception {
    ClientKeySetFetch<String> fetch =
        ClientKeySetFetch.builder(ClientKeySetFetchTest::keySet).allowPrivate(true).build();

    assertFalse(fetch.started());
    fetch.close();
    assertFalse(fetch.started());
    IOException refused = assertThrows(IOException.class, () -> fetched(fetch, REGISTERED));
    assertTrue(refused.getMessage().contains("closed"), refused.getMessage());
  }

  /** DNS may change after registration: each fetch checks again, before connecting. */
  @Test
  void whenFetchedHostIsPrivateThenRefusedBeforeAnyRequest() throws Exception {
    stub.answer("/jwks", HttpsStub.whole(200, KEYS));
    ClientKeySetFetch<String> fetch = toStub(stub).allowPrivate(false).build();

    IOException refused = assertThrows(IOException.class, () -> fetched(fetch, stub.uri("/jwks")));

    assertTrue(refused.getMessage().startsWith(NOT_PUBLIC), refused.getMessage());
    assertEquals(0, stub.requests("/jwks"));
  }

  @Test
  void whenServerRedirectsThenRefusedAndTheTargetIsNeverRequested() throws Exception {
    stub.answer("/target", HttpsStub.whole(200, KEYS));
    stub.answer("/jwks", HttpsStub.whole(302, "", "Location", stub.uri("/target").toString()));

    IOException refused =
        assertThrows(IOException.class, () -> fetched(toStub(stub).build(), stub.uri("/jwks")));

    assertTrue(refused.getMessage().endsWith("answered 302: redirects are not followed"));
    assertEquals(1, stub.requests("/jwks"));
    assertEquals(0, stub.requests("/target"));
  }

  @Test
  void whenHttpClientFollowsRedirectsThenTheBuildIsRefused() {
    HttpClient following =
        HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();

    assertThrows(IllegalStateException.class, () -> toStub(stub).httpClient(following).build());
  }

  @Test
  void whenStatusIsNot200ThenRefused() throws Exception {
    stub.answer("/jwks", HttpsStub.whole(500, KEYS));

    IOException refused =
        assertThrows(IOException.class, () -> fetched(toStub(stub).build(), stub.uri("/jwks")));

    assertTrue(refused.getMessage().endsWith("answered 500"));
  }

  @Test
  void whenBodyIsOverTheDefaultCapThenRefusedAndAtTheCapAccepted() throws Exception {
    String atCap = padded(64 * 1024);
    stub.answer("/at-cap", HttpsStub.whole(200, atCap));
    stub.answer("/over-cap", HttpsStub.whole(200, padded(64 * 1024 + 1)));
    ClientKeySetFetch<String> fetch = toStub(stub).build();

    assertEquals(atCap, fetched(fetch, stub.uri("/at-cap")));
    IOException refused =
        assertThrows(IOException.class, () -> fetched(fetch, stub.uri("/over-cap")));
    assertEquals("the body is larger than 65536 bytes", refused.getMessage());
  }

  private static String padded(int length) {
    return "{\"keys\":[]}" + " ".repeat(length - "{\"keys\":[]}".length());
  }

  @Test
  void whenBodyIsNotAKeySetThenTheFetchFails() throws Exception {
    stub.answer("/jwks", HttpsStub.whole(200, "<html>"));

    IOException refused =
        assertThrows(IOException.class, () -> fetched(toStub(stub).build(), stub.uri("/jwks")));

    assertEquals("not a key set", refused.getMessage());
  }

  @Test
  void whenServerSendsHeadersThenStallsThenTheFetchFailsWithinTheDeadline() {
    stub.answer("/jwks", HttpsStub.headersThenStall());
    ClientKeySetFetch<String> fetch = toStub(stub).deadline(DEADLINE).build();

    IOException failed =
        assertTimeoutPreemptively(
            BOUND, () -> assertThrows(IOException.class, () -> fetched(fetch, stub.uri("/jwks"))));

    // The headers came, so the request's own timeout was over: the whole-exchange deadline ended
    // it.
    assertInstanceOf(HttpTimeoutException.class, failed);
    assertTrue(failed.getMessage().endsWith("gave no complete answer within PT0.3S"));
    assertEquals(1, stub.requests("/jwks"));
  }

  @Test
  void whenServerNeverAnswersThenTheFetchFailsWithinTheDeadline() {
    stub.answer("/jwks", HttpsStub.silence());
    ClientKeySetFetch<String> fetch = toStub(stub).deadline(DEADLINE).build();

    IOException failed =
        assertTimeoutPreemptively(
            BOUND, () -> assertThrows(IOException.class, () -> fetched(fetch, stub.uri("/jwks"))));

    assertInstanceOf(HttpTimeoutException.class, failed);
  }
}
