package dev.platform.identity.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.jose.LimitedBody;
import dev.platform.identity.verify.HttpsOnly;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Gets and keeps an access token for one service account (OAuth 2.0 client credentials). Follows
 * SPEC 5.6 and 7.3: the token is cached in memory and renewed when less than 5 minutes remain, by
 * one caller while the others keep using the still-valid token; a 401 from an API is reported with
 * {@link #reportUnauthorized}; 429 waits {@code retry_after} (at most 5 minutes by default) and 5xx
 * backs off exponentially with jitter, a bounded number of times; other statuses are final ({@link
 * TokenClientException}). Each request has a deadline over the whole exchange, body included. The
 * client authenticates with a secret (client_secret_basic or client_secret_post) or with a signed
 * JWT (private_key_jwt, RFC 7523). With a DPoP key ({@link Builder#dpop}, RFC 9449) every token
 * request carries a proof of it, so the token is bound to the key; the client retries once when the
 * service asks for a nonce ({@code use_dpop_nonce}), and makes the proof for each API call ({@link
 * #proofFor}, {@link #headersFor}). Immutable configuration, thread-safe; never logs or shows the
 * secret, the private keys or the token.
 */
public final class TokenClient {
  /** Shared with {@link ClientAssertion}; thread-safe once configured. */
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The largest token response read. Ours are 1 to 2 KB; a larger answer is not the identity
   * service's, and is refused for good rather than read for the whole request timeout.
   */
  public static final int MAX_RESPONSE_BYTES = 64 * 1024;

  /** RFC 9449 §7.1 and §4.1: the headers a DPoP-bound token and its proof travel in. */
  public static final String AUTHORIZATION = "Authorization";

  public static final String DPOP = "DPoP";

  /** RFC 9449 §8: the header the service gives its nonce in, and the error that asks for it. */
  static final String DPOP_NONCE = "DPoP-Nonce";

  static final String USE_DPOP_NONCE = "use_dpop_nonce";

  /** After a failed renewal, callers keep the valid token this long before the next try. */
  private static final Duration RENEWAL_RETRY = Duration.ofSeconds(30);

  private final URI tokenUri;
  private final URI issuer;
  private final String clientId;
  private final Supplier<String> clientSecret;
  private final String scope;
  private final boolean basic;
  private final ClientAssertion assertion;
  private final DpopKey dpop;
  private final Clock clock;
  private final HttpClient http;
  private final Sleeper sleeper;
  private final Random jitter;
  private final int maxAttempts;
  private final Duration firstBackoff;
  private final Duration maxBackoff;
  private final Duration maxRetryAfter;
  private final Duration requestTimeout;

  private final AtomicReference<CachedToken> current = new AtomicReference<>();
  private final ReentrantLock fetching = new ReentrantLock();
  private volatile Instant nextRenewalTry = Instant.MIN;

  /** The token endpoint's latest {@code DPoP-Nonce}, sent in the next token request's proof. */
  private final AtomicReference<String> nonce = new AtomicReference<>();

  private TokenClient(Builder b, ClientAssertion assertion, DpopKey dpop) {
    this.tokenUri = b.tokenUri;
    this.issuer = b.issuer;
    this.clientId = b.clientId;
    this.clientSecret = b.clientSecret;
    this.scope = b.scopes.isEmpty() ? null : String.join(" ", b.scopes);
    this.basic = b.basic;
    this.assertion = assertion;
    this.dpop = dpop;
    this.clock = b.clock;
    this.http =
        b.http != null
            ? b.http
            : HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    this.sleeper = b.sleeper;
    this.jitter = b.jitter;
    this.maxAttempts = b.maxAttempts;
    this.firstBackoff = b.firstBackoff;
    this.maxBackoff = b.maxBackoff;
    this.maxRetryAfter = b.maxRetryAfter;
    this.requestTimeout = b.requestTimeout;
  }

  /** A builder; base URL, client_id and either a secret or a private key are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A valid access token: the cached one while more than 5 minutes remain; otherwise one caller
   * renews while the others keep the still-valid token; with no valid token, callers wait for one
   * request.
   *
   * @throws TokenClientException when no valid token can be had
   */
  public String token() {
    return held().value();
  }

  /**
   * The {@code Authorization} header value for an API call with the token of {@link #token()}:
   * {@code DPoP <token>} for a token bound to the DPoP key (its {@code token_type} said so), else
   * {@code Bearer <token>}. A DPoP-bound token also needs the call's proof ({@link #proofFor}), or
   * take both at once from {@link #headersFor}, so that they name the same token.
   *
   * @throws TokenClientException when no valid token can be had
   */
  public String authorization() {
    return held().authorization();
  }

  /**
   * The {@code DPoP} header value for one API call (RFC 9449 §4.2, §7.1): a new proof of the DPoP
   * key naming {@code method} and {@code target} (its query and fragment left out), with {@code
   * ath} the hash of the current token.
   *
   * @param method the call's HTTP method, such as {@code GET}
   * @param target the call's URI
   * @throws IllegalStateException when the client has no DPoP key
   * @throws TokenClientException when no valid token can be had
   */
  public String proofFor(String method, URI target) {
    return proofFor(method, target, null);
  }

  /**
   * As {@link #proofFor(String, URI)}, carrying {@code nonce}: the API's own {@code DPoP-Nonce}
   * (RFC 9449 §9), which it gave in a {@code use_dpop_nonce} answer or a previous one; null sends
   * none.
   */
  public String proofFor(String method, URI target, String nonce) {
    DpopKey key = requireDpop();
    return key.proof(method, target, nonce, held().value(), clock.instant());
  }

  /**
   * The headers of one API call, from one token: {@code Authorization}, and with a DPoP-bound token
   * {@code DPoP}, the call's proof. Add each to the request, as {@code headersFor("GET",
   * uri).forEach(request::header)}.
   *
   * @param nonce the API's {@code DPoP-Nonce}, or null
   * @throws TokenClientException when no valid token can be had
   */
  public Map<String, String> headersFor(String method, URI target, String nonce) {
    CachedToken held = held();
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(AUTHORIZATION, held.authorization());
    if (held.isDpop()) {
      headers.put(DPOP, requireDpop().proof(method, target, nonce, held.value(), clock.instant()));
    }
    return Map.copyOf(headers);
  }

  /** As {@link #headersFor(String, URI, String)}, without a nonce. */
  public Map<String, String> headersFor(String method, URI target) {
    return headersFor(method, target, null);
  }

  /**
   * The thumbprint of the DPoP key (RFC 7638), what its tokens' {@code cnf.jkt} names; or empty.
   */
  public Optional<String> dpopThumbprint() {
    return Optional.ofNullable(dpop).map(DpopKey::thumbprint);
  }

  private DpopKey requireDpop() {
    if (dpop == null) {
      throw new IllegalStateException("this TokenClient has no DPoP key: see Builder.dpop");
    }
    return dpop;
  }

  /** The valid token, fetched or renewed as {@link #token()} says. */
  private CachedToken held() {
    Instant now = clock.instant();
    CachedToken held = current.get();
    if (held != null && held.isFreshAt(now)) {
      return held;
    }
    if (held != null && held.isValidAt(now)) {
      return renewOrKeep(held, now);
    }
    fetching.lock();
    try {
      CachedToken again = current.get();
      if (again != null && again.isValidAt(clock.instant())) {
        return again;
      }
      CachedToken fresh = fetch();
      current.set(fresh);
      return fresh;
    } finally {
      fetching.unlock();
    }
  }

  /** The caller that gets the lock renews; the others, and a failed renewal, keep {@code held}. */
  private CachedToken renewOrKeep(CachedToken held, Instant now) {
    if (now.isBefore(nextRenewalTry) || !fetching.tryLock()) {
      return held;
    }
    try {
      if (current.get() == held) {
        current.set(fetch());
      }
    } catch (TokenClientException e) {
      nextRenewalTry = now.plus(RENEWAL_RETRY);
    } finally {
      fetching.unlock();
    }
    return current.get();
  }

  /**
   * SPEC 5.6: an API answered 401 to {@code token}; it is dropped, so the next {@link #token()}
   * fetches a new one. A token other than the cached one changes nothing.
   */
  public void reportUnauthorized(String token) {
    CachedToken held = current.get();
    if (held != null && held.value().equals(token)) {
      current.compareAndSet(held, null);
    }
  }

  private CachedToken fetch() {
    TokenClientException last = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      Duration wait;
      try {
        HttpResponse<byte[]> response = exchange();
        int status = response.statusCode();
        JsonNode body = json(new String(response.body(), StandardCharsets.UTF_8));
        if (status == 200) {
          return cached(body);
        }
        String error = text(body, "error");
        last =
            new TokenClientException(
                status,
                error,
                error != null ? text(body, "error_description") : notOurs(response),
                null);
        if (status == 429) {
          wait = max(retryAfter(response, body), backoff(attempt));
        } else if (status >= 500) {
          wait = backoff(attempt);
        } else {
          throw last;
        }
      } catch (IOException e) {
        last = new TokenClientException(0, null, "the identity service cannot be reached", e);
        wait = backoff(attempt);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TokenClientException(0, null, "interrupted", e);
      }
      if (attempt < maxAttempts) {
        pause(wait);
      }
    }
    throw last;
  }

  /**
   * One token request; with a DPoP key, sent again at once, and once only, when the service answers
   * {@code use_dpop_nonce} with a {@code DPoP-Nonce} (RFC 9449 §8). The latest nonce of any answer
   * is kept for the next request.
   */
  private HttpResponse<byte[]> exchange() throws IOException, InterruptedException {
    HttpResponse<byte[]> response = send(request());
    if (dpop == null) {
      return response;
    }
    boolean given = rememberNonce(response);
    if (given
        && response.statusCode() == 400
        && USE_DPOP_NONCE.equals(
            text(json(new String(response.body(), StandardCharsets.UTF_8)), "error"))) {
      response = send(request());
      rememberNonce(response);
    }
    return response;
  }

  private boolean rememberNonce(HttpResponse<?> response) {
    Optional<String> given = response.headers().firstValue(DPOP_NONCE).filter(n -> !n.isBlank());
    given.ifPresent(nonce::set);
    return given.isPresent();
  }

  /**
   * The request's own timeout ends when the headers arrive; the deadline here covers the body too,
   * so a server that stalls mid-body fails the attempt like any I/O failure. The body is read up to
   * {@link #MAX_RESPONSE_BYTES} and no further: a larger one fails for good, naming the cap.
   */
  private HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
    AtomicInteger status = new AtomicInteger();
    CompletableFuture<HttpResponse<byte[]>> exchange =
        http.sendAsync(
            request,
            info -> {
              status.set(info.statusCode());
              return new LimitedBody(MAX_RESPONSE_BYTES);
            });
    try {
      return exchange.get(requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new HttpTimeoutException("no complete answer within " + requestTimeout);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof LimitedBody.TooLargeException tooLarge) {
        throw new TokenClientException(
            status.get(),
            null,
            "the response is larger than "
                + MAX_RESPONSE_BYTES
                + " bytes (64 KiB); not read further",
            tooLarge);
      }
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } finally {
      // Closes the connection of an exchange still running; nothing once it is done.
      exchange.cancel(true);
    }
  }

  private HttpRequest request() {
    StringBuilder form = new StringBuilder("grant_type=client_credentials");
    String authorization = authenticate(form);
    if (scope != null) {
      form.append("&scope=").append(encode(scope));
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(tokenUri)
            .timeout(requestTimeout)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(form.toString()));
    if (authorization != null) {
      request.header(AUTHORIZATION, authorization);
    }
    if (dpop != null) {
      request.header(DPOP, dpop.proof("POST", tokenUri, nonce.get(), null, clock.instant()));
    }
    return request.build();
  }

  /** Adds the client's credentials to the form; returns the Authorization header, if one. */
  private String authenticate(StringBuilder form) {
    if (assertion != null) {
      // RFC 7523 §2.2; aud is the issuer, one string (draft-ietf-oauth-rfc7523bis), so the
      // assertion is good at this service only.
      form.append("&client_id=").append(encode(clientId));
      form.append("&client_assertion_type=").append(encode(ClientAssertion.TYPE));
      form.append("&client_assertion=").append(assertion.sign(clientId, issuer, clock.instant()));
      return null;
    }
    String secret = secret();
    if (basic) {
      // RFC 6749 §2.3.1 and Appendix B: form-encode each part, then base64.
      String pair = encode(clientId) + ":" + encode(secret);
      return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }
    form.append("&client_id=").append(encode(clientId));
    form.append("&client_secret=").append(encode(secret));
    return null;
  }

  /** Asked at every request, so a secret the vault replaced is used from the next one on. */
  private String secret() {
    String secret;
    try {
      secret = clientSecret.get();
    } catch (RuntimeException e) {
      throw new TokenClientException(0, null, "the client secret cannot be had", e);
    }
    if (secret == null || secret.isEmpty()) {
      throw new TokenClientException(0, null, "the client secret supplier gave no secret", null);
    }
    return secret;
  }

  private CachedToken cached(JsonNode body) {
    String token = text(body, "access_token");
    long expiresIn = body.path("expires_in").asLong(0);
    if (token == null || expiresIn <= 0) {
      throw new TokenClientException(
          200, null, "the token response has no token or lifetime", null);
    }
    String type = text(body, "token_type");
    return new CachedToken(
        token, clock.instant().plusSeconds(expiresIn), type == null ? CachedToken.BEARER : type);
  }

  /** The server's wish, capped: a {@code retry_after} of days must not park the client. */
  private Duration retryAfter(HttpResponse<?> response, JsonNode body) {
    long seconds = body.path("retry_after").asLong(0);
    if (seconds <= 0) {
      seconds = response.headers().firstValue("Retry-After").map(TokenClient::seconds).orElse(1L);
    }
    Duration asked = Duration.ofSeconds(Math.max(1, seconds));
    return asked.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : asked;
  }

  private static long seconds(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /** Exponential, with jitter between half and all of the step, capped. */
  private Duration backoff(int attempt) {
    long step = firstBackoff.toMillis() << Math.min(attempt - 1, 20);
    long capped = Math.min(step, maxBackoff.toMillis());
    return Duration.ofMillis(capped / 2 + (long) (jitter.nextDouble() * (capped / 2.0)));
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private void pause(Duration wait) {
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TokenClientException(0, null, "interrupted", e);
    }
  }

  private static JsonNode json(String body) {
    try {
      return JSON.readTree(body == null || body.isBlank() ? "{}" : body);
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  /**
   * What an answer without SPEC 7.1's {@code error} was, for the exception's message: such an
   * answer came from something between (a proxy, the container), not the token endpoint.
   */
  private static String notOurs(HttpResponse<byte[]> response) {
    String type = response.headers().firstValue("Content-Type").orElse("no Content-Type");
    String start = new String(response.body(), StandardCharsets.UTF_8);
    start = start.substring(0, Math.min(start.length(), 80)).replaceAll("[^\\x20-\\x7e]", " ");
    return "not the service's error answer: "
        + type
        + ", "
        + response.body().length
        + " bytes"
        + (start.isBlank() ? "" : ": " + start.strip());
  }

  private static String text(JsonNode body, String field) {
    JsonNode value = body.path(field);
    return value.isTextual() ? value.asText() : null;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "TokenClient[" + tokenUri + ", client_id=" + clientId + "]";
  }

  /** Sets the account, the service and the retry policy; {@link #build()} makes the client. */
  public static final class Builder {
    private URI tokenUri;
    private URI issuer;
    private String clientId;
    private Supplier<String> clientSecret;
    private List<String> scopes = List.of();
    private boolean basic = true;
    private PrivateKey privateKey;
    private String kid;
    private String alg;
    private KeyPair dpop;
    private Clock clock = Clock.systemUTC();
    private HttpClient http;
    private Sleeper sleeper = Sleeper.THREAD;
    private Random jitter = new Random();
    private int maxAttempts = 5;
    private Duration firstBackoff = Duration.ofMillis(200);
    private Duration maxBackoff = Duration.ofSeconds(10);
    private Duration maxRetryAfter = Duration.ofMinutes(5);
    private Duration requestTimeout = Duration.ofSeconds(10);

    private Builder() {}

    /**
     * The identity service's base URL; tokens come from {@code {base}/oauth/token}. SPEC 5.6: it is
     * https, or plain http to a loopback host written as such ({@code localhost}, 127.0.0.0/8 or
     * {@code [::1]}, never a name that merely resolves there), and has no user info.
     *
     * @throws IllegalArgumentException naming the URL's scheme and host, when it breaks that rule
     */
    public Builder baseUrl(URI base) {
      String text = HttpsOnly.check("baseUrl", base).toString();
      this.tokenUri = URI.create((text.endsWith("/") ? text : text + "/") + "oauth/token");
      this.issuer = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
      return this;
    }

    /** The account's client_id and secret (the secret is never logged or shown). */
    public Builder credentials(String clientId, String clientSecret) {
      Objects.requireNonNull(clientSecret);
      return credentials(clientId, () -> clientSecret);
    }

    /**
     * The account's client_id, and where its secret comes from: asked at every token request, so a
     * backend whose vault hands it a rotated secret moves over at its next renewal, with no restart
     * . It may be called by several threads; it should answer quickly (it runs before each
     * request); a null, empty or failing answer fails that request with {@link
     * TokenClientException}, and the cached token is kept while it is valid.
     */
    public Builder credentials(String clientId, Supplier<String> clientSecret) {
      this.clientId = Objects.requireNonNull(clientId);
      this.clientSecret = Objects.requireNonNull(clientSecret);
      return this;
    }

    /**
     * The account's client_id alone, for {@link #privateKeyJwt}; {@link #credentials} sets it
     * together with a secret.
     */
    public Builder clientId(String clientId) {
      this.clientId = Objects.requireNonNull(clientId);
      return this;
    }

    /**
     * Authenticate with a JWT signed by the account's private key (private_key_jwt, RFC 7523 §2.2)
     * instead of a secret: each token request carries a fresh assertion, valid for 60 s, whose
     * audience is the issuer (the base URL without a trailing slash, as one string:
     * draft-ietf-oauth-rfc7523bis), so the service never holds anything that lets it, or a reader
     * of its database, act as the account. Needs {@link #clientId}; excludes {@link #credentials}
     * and {@link #clientSecretPost}. The key is never logged or shown.
     *
     * @param key an RSA key of 2048 bits or more for RS256 and PS256, an EC P-256 key for ES256
     * @param kid the key's id at the service, sent in the JWT header; null sends none
     * @param alg {@code RS256}, {@code PS256} or {@code ES256}; a key that does not fit it is
     *     refused by {@link #build()}
     */
    public Builder privateKeyJwt(PrivateKey key, String kid, String alg) {
      this.privateKey = Objects.requireNonNull(key);
      this.kid = kid;
      this.alg = Objects.requireNonNull(alg);
      return this;
    }

    /**
     * Bind the tokens to a key the client holds (DPoP, RFC 9449): every token request carries a new
     * proof signed by it, ES256 for an EC P-256 pair, RS256 for an RSA pair (2048 bits or more), so
     * the token the service gives is bound to it ({@code token_type} DPoP, {@code cnf.jkt}); each
     * API call then carries it as {@code Authorization: DPoP} with a proof of its own ({@link
     * TokenClient#headersFor}). Works with any client authentication; an account registered with
     * {@code dpop_bound_access_tokens} needs it. The private key is never logged or shown.
     */
    public Builder dpop(KeyPair keys) {
      this.dpop = Objects.requireNonNull(keys);
      return this;
    }

    /** Scopes to request; none: every scope the account is allowed. */
    public Builder scopes(List<String> scopes) {
      this.scopes = List.copyOf(scopes);
      return this;
    }

    /** Send the credentials in the form (client_secret_post) instead of HTTP Basic (default). */
    public Builder clientSecretPost() {
      this.basic = false;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /**
     * The HTTP client; by default one with a 2 s connect timeout that follows no redirect. One that
     * follows redirects is refused by {@link #build()}: a redirect would carry the credentials to
     * wherever the answer points, and the token response would come from there.
     */
    public Builder httpClient(HttpClient http) {
      this.http = http;
      return this;
    }

    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper);
      return this;
    }

    public Builder jitter(Random jitter) {
      this.jitter = Objects.requireNonNull(jitter);
      return this;
    }

    /** Retries of 429, 5xx and I/O failures: attempts in all, first and largest backoff. */
    public Builder retries(int maxAttempts, Duration firstBackoff, Duration maxBackoff) {
      this.maxAttempts = maxAttempts;
      this.firstBackoff = firstBackoff;
      this.maxBackoff = maxBackoff;
      return this;
    }

    /**
     * The longest wait a 429's {@code retry_after} (or {@code Retry-After}) can ask for (default 5
     * minutes); a longer one is cut to this.
     */
    public Builder maxRetryAfter(Duration maxRetryAfter) {
      this.maxRetryAfter = Objects.requireNonNull(maxRetryAfter);
      return this;
    }

    /**
     * The deadline of one token request, from connecting to the last byte of the response body
     * (default 10 s). A request still running then is abandoned, its connection closed, and counts
     * as an I/O failure, which is retried; so a server that sends its headers and then stalls holds
     * a caller at most the attempts times this, plus the backoffs.
     */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /**
     * The client, once the settings hold together: a base URL, a client_id, exactly one way to
     * authenticate (a secret or a private key that fits its algorithm), and an HTTP client that
     * follows no redirect.
     *
     * @throws IllegalStateException naming what is missing or wrong
     */
    public TokenClient build() {
      if (tokenUri == null || clientId == null) {
        throw new IllegalStateException(
            "the base URL and the client_id (clientId or credentials) are required");
      }
      checkAuthentication();
      if (http != null && http.followRedirects() != HttpClient.Redirect.NEVER) {
        throw new IllegalStateException(
            "the HTTP client follows redirects ("
                + http.followRedirects()
                + "): give one built with followRedirects(HttpClient.Redirect.NEVER)");
      }
      if (maxAttempts < 1) {
        throw new IllegalStateException("at least one attempt");
      }
      if (requestTimeout.isNegative() || requestTimeout.isZero() || maxRetryAfter.isNegative()) {
        throw new IllegalStateException(
            "the request timeout must be positive, the retry cap not negative");
      }
      return new TokenClient(
          this,
          privateKey == null ? null : new ClientAssertion(privateKey, kid, alg),
          dpop == null ? null : new DpopKey(dpop));
    }

    private void checkAuthentication() {
      if (clientSecret == null && privateKey == null) {
        throw new IllegalStateException(
            "a client secret (credentials) or a private key (privateKeyJwt) is required");
      }
      if (clientSecret != null && privateKey != null) {
        throw new IllegalStateException(
            "either a client secret (credentials) or a private key (privateKeyJwt), not both");
      }
      if (privateKey != null && !basic) {
        throw new IllegalStateException(
            "clientSecretPost sends a secret; privateKeyJwt sends an assertion instead");
      }
    }

    @Override
    public String toString() {
      return "TokenClient.Builder[" + tokenUri + ", client_id=" + clientId + "]";
    }
  }

  /** For tests and diagnostics: when the cached token expires, if there is one. */
  Optional<Instant> cachedExpiry() {
    return Optional.ofNullable(current.get()).map(CachedToken::expiresAt);
  }
}
