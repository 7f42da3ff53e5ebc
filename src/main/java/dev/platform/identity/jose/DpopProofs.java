package dev.platform.identity.jose;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.jose.DpopProofException.Reason;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Checks DPoP proofs (RFC 9449 §4.3), the same way at the token endpoint and at an API: exactly one
 * {@code DPoP} header; a signed JWT taken apart by {@link CompactJws}; {@code typ} exactly {@code
 * dpop+jwt}; an {@code alg} from the allow-list (asymmetric only: {@link JwsAlgorithm} has no
 * {@code none} and no MAC) and no {@code crit}; a {@code jwk} that is a public RSA or P-256 key by
 * {@link Jwk}'s rules and fits the {@code alg}; the signature that key's; then the claims: a {@code
 * jti}, {@code htm} the request's method, {@code htu} its URI ({@link HttpTarget}), {@code iat}
 * within the window, and {@code ath} and {@code nonce} when the caller expects them. Replay is the
 * caller's next step ({@link DpopReplays}).
 *
 * <p>Made by {@link #builder()}; immutable and thread-safe.
 */
public final class DpopProofs {
  /** RFC 9449 §4.2: the proof's {@code typ}. */
  public static final String TYPE = "dpop+jwt";

  /**
   * The algorithms a checker takes unless its builder says otherwise, in the order discovery lists
   * them ({@code dpop_signing_alg_values_supported}, RFC 9449 §5.1): ES256 first, as RFC 9449's
   * examples and most clients use it.
   */
  public static final List<JwsAlgorithm> DEFAULT_ALGORITHMS =
      List.of(JwsAlgorithm.ES256, JwsAlgorithm.RS256, JwsAlgorithm.PS256);

  /** A proof longer than this is refused before it is decoded: an RSA 8192 key fits in it. */
  public static final int MAX_LENGTH = 8 * 1024;

  /** The longest {@code jti} taken: the replay cache keeps each, so each is bounded. */
  public static final int MAX_JTI = 256;

  /** How old a proof's {@code iat} may be, unless the builder says otherwise. */
  public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(60);

  /**
   * How far ahead of this clock a proof's {@code iat} may be, unless the builder says otherwise.
   */
  public static final Duration DEFAULT_FUTURE_SKEW = Duration.ofSeconds(10);

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final Clock clock;
  private final Set<String> algorithms;
  private final Duration maxAge;
  private final Duration futureSkew;

  private DpopProofs(Builder builder) {
    this.clock = builder.clock;
    this.algorithms =
        builder.algorithms.stream().map(Enum::name).collect(Collectors.toUnmodifiableSet());
    this.maxAge = builder.maxAge;
    this.futureSkew = builder.futureSkew;
  }

  /**
   * A builder with the {@link #DEFAULT_ALGORITHMS} (ES256, RS256 and PS256), the system clock, and
   * the default window.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * RFC 9449 §4.2: the {@code ath} a proof sent with {@code accessToken} carries, the base64url
   * SHA-256 of its ASCII.
   */
  public static String accessTokenHash(String accessToken) {
    return BASE64URL.encodeToString(sha256(accessToken.getBytes(StandardCharsets.US_ASCII)));
  }

  /**
   * The proof a request carries, checked.
   *
   * @param headers every value of the request's {@code DPoP} header
   * @param method the request's method, as sent
   * @param target the request's URI as this server sees it; its query and fragment are ignored
   * @param ath the {@code ath} the proof must carry (with an access token), or empty
   * @param nonce the {@code nonce} the proof must carry (RFC 9449 §8), or empty
   * @throws DpopProofException saying which rule the proof broke
   */
  public DpopProof check(
      List<String> headers,
      String method,
      URI target,
      Optional<String> ath,
      Optional<String> nonce) {
    Predicate<String> expected = nonce.isPresent() ? nonce.get()::equals : null;
    return checked(headers, method, target, ath, expected);
  }

  /**
   * As {@link #check(List, String, URI, Optional, Optional)}, the proof's {@code nonce} one that
   * {@code nonces} gave out and still takes (RFC 9449 §8).
   */
  public DpopProof check(
      List<String> headers, String method, URI target, Optional<String> ath, DpopNonces nonces) {
    Objects.requireNonNull(nonces);
    return checked(headers, method, target, ath, nonces::accepts);
  }

  /**
   * The checks, {@code nonce} null when no nonce is expected. Whatever else a library throws on the
   * sender's bytes is a refusal too, never an error of the service: a proof is the sender's to
   * make, and no input of theirs may turn into a 500.
   */
  private DpopProof checked(
      List<String> headers,
      String method,
      URI target,
      Optional<String> ath,
      Predicate<String> nonce) {
    try {
      return checkedStrictly(headers, method, target, ath, nonce);
    } catch (DpopProofException e) {
      throw e;
    } catch (RuntimeException e) {
      throw refused(Reason.MALFORMED, "the DPoP proof cannot be read");
    }
  }

  private DpopProof checkedStrictly(
      List<String> headers,
      String method,
      URI target,
      Optional<String> ath,
      Predicate<String> nonce) {
    if (headers == null || headers.size() != 1) {
      throw refused(Reason.HEADER_COUNT, "a request must carry exactly one DPoP header");
    }
    CompactJws jws = parsed(headers.get(0));
    JsonNode header = members(jws);
    if (!header.path("typ").isTextual() || !TYPE.equals(header.get("typ").asText())) {
      throw refused(Reason.TYPE, "the DPoP proof's typ must be " + TYPE);
    }
    JwsAlgorithm alg = algorithm(jws.header());
    PublicKey key = key(header.get("jwk"), alg);
    byte[] input = Arrays.copyOf(jws.signingInput(), jws.signingInputLength());
    if (!alg.verify(key, input, jws.signature())) {
      throw refused(Reason.SIGNATURE, "the DPoP proof is not signed by the key in its jwk");
    }
    return claims(jws, key, method, target, ath, nonce);
  }

  private DpopProof claims(
      CompactJws jws,
      PublicKey key,
      String method,
      URI target,
      Optional<String> ath,
      Predicate<String> nonce) {
    JsonNode claims;
    try {
      claims = StrictJson.object(jws.payload());
    } catch (JwsException e) {
      throw refused(Reason.MALFORMED, "the DPoP proof's claims are not one JSON object");
    }
    String jti = required(claims, "jti");
    if (jti.isEmpty() || jti.length() > MAX_JTI) {
      throw refused(Reason.CLAIMS, "the DPoP proof's jti must be 1 to " + MAX_JTI + " characters");
    }
    if (!required(claims, "htm").equals(method)) {
      throw refused(Reason.METHOD, "the DPoP proof's htm is not this request's method, " + method);
    }
    Optional<String> htu = HttpTarget.normalised(required(claims, "htu"));
    if (htu.isEmpty() || !htu.equals(HttpTarget.normalised(target))) {
      throw refused(Reason.URI, "the DPoP proof's htu is not this request's URI");
    }
    Instant iat = issuedAt(claims);
    String sentNonce = claims.path("nonce").textValue();
    if (nonce != null && (sentNonce == null || !nonce.test(sentNonce))) {
      throw refused(Reason.NONCE, "the DPoP proof must carry the nonce this server gave");
    }
    if (ath.isPresent()) {
      String sent = claims.path("ath").textValue();
      if (sent == null
          || !MessageDigest.isEqual(
              sent.getBytes(StandardCharsets.UTF_8), ath.get().getBytes(StandardCharsets.UTF_8))) {
        throw refused(Reason.ACCESS_TOKEN_HASH, "the DPoP proof's ath is not this access token's");
      }
    }
    return new DpopProof(Jwk.thumbprint(key), jti, iat, iat.plus(maxAge));
  }

  private static CompactJws parsed(String text) {
    if (text == null || text.length() > MAX_LENGTH) {
      throw refused(
          Reason.MALFORMED, "the DPoP proof is longer than " + MAX_LENGTH + " characters");
    }
    try {
      return CompactJws.parse(text);
    } catch (JwsException e) {
      throw refused(
          Reason.MALFORMED,
          "the DPoP proof must be a signed JWT: three base64url parts of JSON, the last the"
              + " signature");
    }
  }

  private static JsonNode members(CompactJws jws) {
    try {
      return jws.header().members();
    } catch (JwsException e) {
      throw refused(Reason.MALFORMED, "the DPoP proof's header is not one JSON object");
    }
  }

  /** RFC 9449 §4.3 check 5: an allowed asymmetric alg, and no crit, since none is understood. */
  private JwsAlgorithm algorithm(CompactJws.Header header) {
    try {
      return JwsAlgorithm.valueOf(header.require(algorithms, Set.of()));
    } catch (JwsException e) {
      throw refused(
          Reason.ALGORITHM,
          e.reason() == JwsException.Reason.CRITICAL
              ? "the DPoP proof's header has crit parameters, which this server does not take"
              : "the DPoP proof's alg must be one of " + new TreeSet<>(algorithms));
    }
  }

  /**
   * RFC 9449 §4.3 check 7 and §4.2: the public key of the header's {@code jwk}, of the type its
   * {@code alg} needs, by the rules that every client key here is read by.
   */
  private static PublicKey key(JsonNode jwk, JwsAlgorithm alg) {
    if (jwk == null || !jwk.isObject()) {
      throw refused(Reason.KEY, "the DPoP proof's header must carry its public key as jwk");
    }
    for (String member : Jwk.PRIVATE_MEMBERS) {
      if (jwk.has(member)) {
        throw refused(
            Reason.KEY,
            "the DPoP proof's jwk holds the private member '" + member + "': send the public key");
      }
    }
    String kty = jwk.path("kty").asText("");
    boolean fits = alg.isEcdsa() ? kty.equals("EC") : kty.equals("RSA");
    if (!fits) {
      throw refused(
          Reason.KEY,
          "the DPoP proof's jwk has kty '" + Jwk.quoted(kty) + "', which " + alg + " cannot use");
    }
    try {
      return alg.isEcdsa() ? Jwk.p256(jwk) : Jwk.rsa(jwk);
    } catch (IllegalArgumentException e) {
      throw refused(Reason.KEY, "the DPoP proof's jwk " + e.getMessage());
    }
  }

  /** RFC 9449 §4.3 check 11: iat no older than the window, nor later than the skew. */
  private Instant issuedAt(JsonNode claims) {
    Optional<Instant> iat;
    try {
      iat = NumericDate.of(claims, "iat");
    } catch (JwsException e) {
      throw refused(Reason.CLAIMS, "the DPoP proof's iat is not a NumericDate");
    }
    Instant issued =
        iat.orElseThrow(() -> refused(Reason.CLAIMS, "the DPoP proof must carry an iat"));
    Instant now = clock.instant();
    if (issued.isAfter(now.plus(futureSkew))) {
      throw refused(Reason.FUTURE, "the DPoP proof's iat is in the future: check the clock");
    }
    if (issued.isBefore(now.minus(maxAge))) {
      throw refused(
          Reason.TOO_OLD,
          "the DPoP proof's iat is more than "
              + maxAge.toSeconds()
              + " seconds old: make a new one");
    }
    return issued;
  }

  private static String required(JsonNode claims, String claim) {
    JsonNode value = claims.get(claim);
    if (value == null || !value.isTextual()) {
      throw refused(Reason.CLAIMS, "the DPoP proof must carry " + claim + " as a string");
    }
    return value.asText();
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  private static DpopProofException refused(Reason reason, String description) {
    return new DpopProofException(reason, description);
  }

  /** The policy of a {@link DpopProofs}; {@link #build()} makes an immutable checker. */
  public static final class Builder {
    private Clock clock = Clock.systemUTC();
    private Set<JwsAlgorithm> algorithms = EnumSet.copyOf(DEFAULT_ALGORITHMS);
    private Duration maxAge = DEFAULT_MAX_AGE;
    private Duration futureSkew = DEFAULT_FUTURE_SKEW;

    private Builder() {}

    /** The clock {@code iat} is judged by. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The algorithms taken; not empty. */
    public Builder algorithms(Set<JwsAlgorithm> algorithms) {
      if (algorithms.isEmpty()) {
        throw new IllegalArgumentException("a DPoP checker needs at least one algorithm");
      }
      this.algorithms = EnumSet.copyOf(algorithms);
      return this;
    }

    /** How old a proof's {@code iat} may be; positive. */
    public Builder maxAge(Duration maxAge) {
      if (maxAge.isNegative() || maxAge.isZero()) {
        throw new IllegalArgumentException("the DPoP proof window must be positive");
      }
      this.maxAge = maxAge;
      return this;
    }

    /** How far ahead of the clock a proof's {@code iat} may be; zero or more. */
    public Builder futureSkew(Duration futureSkew) {
      if (futureSkew.isNegative()) {
        throw new IllegalArgumentException("the DPoP clock skew cannot be negative");
      }
      this.futureSkew = futureSkew;
      return this;
    }

    /** The checker. */
    public DpopProofs build() {
      return new DpopProofs(this);
    }
  }
}
