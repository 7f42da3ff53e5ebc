package dev.platform.identity.verify;

import io.jsonwebtoken.Claims;
import io.jsonwebtoken.ExpiredJwtException;
import io.jsonwebtoken.JwsHeader;
import io.jsonwebtoken.JwtException;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.Locator;
import io.jsonwebtoken.LocatorAdapter;
import java.security.Key;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Date;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Verifies bearer tokens locally, as SPEC 5.4 asks of every platform API. Made once by {@link
 * #builder()}; immutable and thread-safe, so one instance serves every request.
 *
 * <p>The checks and their order are fixed at build time:
 *
 * <ol>
 *   <li>{@code exp} lies in the future, allowing the clock skew, and not further than the longest
 *       token lifetime plus the skew ({@link Builder#maxTokenLifetime}, 24 hours by default, SPEC
 *       8); {@code nbf}, when present, is not later than now plus the skew. A token without {@code
 *       exp} is refused. {@code exp}, {@code nbf} and {@code iat} must be RFC 7519 NumericDates:
 *       JSON numbers of seconds since 1970; an ISO-8601 string, a number in a string, a negative
 *       number or one past the year 9999 is refused. A number with a fraction is accepted, as RFC
 *       7519 allows, and floored. An {@code exp} in milliseconds lies thousands of years ahead, so
 *       the lifetime bound refuses it.
 *   <li>The signature verifies with RS256 and the key whose id is the header's {@code kid}. The
 *       header's {@code alg} is never trusted: only {@code RS256} is accepted, so {@code none},
 *       HS256 (even with the public key as HMAC secret), RS384, PS256 and all others are refused; a
 *       token without {@code kid}, or with a {@code kid} the {@link PublicKeyLocator} does not
 *       know, is refused.
 *   <li>{@code iss} equals the configured issuer exactly.
 *   <li>Every required scope is covered by the {@code scopes} claim ({@link
 *       VerifiedToken#hasScope}).
 * </ol>
 *
 * <p>Claims of a token whose signature is not verified prove nothing (SPEC 5.5), so step 1 is
 * decided on verified claims: the signature is checked first, then the time. The outcome is the
 * spec's, as steps 1 to 3 all answer 401; only the message differs, and it never leaks more than
 * "expired" or "invalid": a genuine expired token is "token expired", an expired token with a bad
 * signature is "invalid token". Among the checks on verified claims the spec's order holds, so a
 * genuine token that is both expired and from another issuer is "token expired". Steps 1 to 3 fail
 * with {@link UnauthenticatedException} (401), step 4 with {@link AccessDeniedException} (403).
 */
public final class BearerVerifier {
  /** The only signature algorithm accepted (SPEC 2.5). */
  public static final String ALGORITHM = "RS256";

  /** The default longest token lifetime: SPEC 8's access token lifetime. */
  public static final Duration DEFAULT_MAX_TOKEN_LIFETIME = Duration.ofHours(24);

  /** The default allowed clock skew. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);

  /**
   * Longer tokens are refused before any parsing. Ours are 1 to 2 KB; servlet containers cap a
   * whole header at 8 KB by default anyway.
   */
  static final int MAX_TOKEN_LENGTH = 8192;

  private static final String SCHEME = "Bearer";

  /** A compact JWS: three base64url parts, the signature not empty (so no unsecured JWT). */
  private static final Pattern COMPACT_JWS =
      Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

  private final JwtParser parser;
  private final String issuer;
  private final Clock clock;

  /** The latest acceptable {@code exp}, from now: the longest token lifetime plus the skew. */
  private final Duration latestExpiry;

  private BearerVerifier(Builder builder) {
    this.issuer = builder.issuer;
    this.clock = builder.clock;
    this.latestExpiry = builder.maxTokenLifetime.plus(builder.skew);
    this.parser =
        Jwts.parser()
            .json(NumericDates.wrappingJjwtJson())
            .keyLocator(keysById(builder.keys))
            // SPEC 5.4 step 2: the algorithm is ours to choose, not the token's.
            .sig()
            .clear()
            .add(Jwts.SIG.RS256)
            .and()
            // Our tokens are never compressed: no decompression, not even after verification.
            .zip()
            .clear()
            .and()
            .clock(() -> Date.from(builder.clock.instant()))
            .clockSkewSeconds(builder.skew.toSeconds())
            .build();
  }

  /**
   * A builder with the defaults: system UTC clock, 60 s skew, 24 h longest token lifetime; issuer
   * and keys still to be set.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Verifies the request's {@code Authorization} header (RFC 6750 §2.1: {@code Bearer <token>}, the
   * scheme in any case) and the token in it.
   *
   * @param authorizationHeader the header's value, null when the request has none
   * @param requiredScopes scopes the operation needs, all of them; may be empty
   * @return the token's claims
   * @throws UnauthenticatedException when the header is missing or blank, names another scheme
   *     (Basic, Digest...), carries no token or a malformed one, or the token fails SPEC 5.4 steps
   *     1 to 3
   * @throws AccessDeniedException when a required scope is not covered (step 4)
   */
  public VerifiedToken verify(String authorizationHeader, Collection<String> requiredScopes) {
    return verifyToken(bearerToken(authorizationHeader), requiredScopes);
  }

  /**
   * Verifies a raw token (the compact JWS, without scheme), SPEC 5.4 steps 1 to 4.
   *
   * @param token the token, such as {@code eyJ...}
   * @param requiredScopes scopes the operation needs, all of them; may be empty
   * @return the token's claims
   * @throws UnauthenticatedException when the token is missing, malformed, expired or invalid
   * @throws AccessDeniedException when a required scope is not covered
   */
  public VerifiedToken verifyToken(String token, Collection<String> requiredScopes) {
    Objects.requireNonNull(requiredScopes, "requiredScopes");
    VerifiedToken verified = authenticate(token);
    verified.requireScopes(requiredScopes); // SPEC 5.4 step 4
    return verified;
  }

  /** SPEC 5.4 steps 1 to 3; see the class comment for the order. */
  private VerifiedToken authenticate(String token) {
    if (token == null
        || token.length() > MAX_TOKEN_LENGTH
        || !COMPACT_JWS.matcher(token).matches()) {
      throw UnauthenticatedException.of(UnauthenticatedException.MALFORMED_TOKEN, null);
    }
    Claims claims;
    try {
      // Step 2 (alg, kid, signature), then step 1 (exp and nbf against the clock with skew).
      claims = parser.parseSignedClaims(token).getPayload();
    } catch (ExpiredJwtException e) {
      throw UnauthenticatedException.of(UnauthenticatedException.EXPIRED_TOKEN, e);
    } catch (JwtException e) {
      throw UnauthenticatedException.of(UnauthenticatedException.INVALID_TOKEN, e);
    }
    if (claims.getExpiration() == null) { // Step 1: a token that never expires is not ours.
      throw UnauthenticatedException.of(
          UnauthenticatedException.INVALID_TOKEN, new IllegalArgumentException("no exp claim"));
    }
    if (claims.getExpiration().toInstant().isAfter(clock.instant().plus(latestExpiry))) {
      // Step 1: no token of ours lives that long; an exp in milliseconds would pass for millennia.
      throw UnauthenticatedException.of(
          UnauthenticatedException.INVALID_TOKEN,
          new IllegalArgumentException("exp beyond the longest token lifetime"));
    }
    if (!issuer.equals(claims.getIssuer())) { // Step 3
      throw UnauthenticatedException.of(
          UnauthenticatedException.INVALID_TOKEN, new IllegalArgumentException("wrong issuer"));
    }
    return VerifiedToken.from(claims);
  }

  /** RFC 7235 §2.1, RFC 6750 §2.1: {@code credentials = auth-scheme 1*SP token68}. */
  private static String bearerToken(String header) {
    if (header == null || header.isBlank()) {
      throw UnauthenticatedException.withoutToken(UnauthenticatedException.MISSING_HEADER);
    }
    String value = header.strip();
    int space = value.indexOf(' ');
    String scheme = space < 0 ? value : value.substring(0, space);
    if (!scheme.equalsIgnoreCase(SCHEME)) {
      throw UnauthenticatedException.withoutToken(UnauthenticatedException.UNSUPPORTED_SCHEME);
    }
    String token = space < 0 ? "" : value.substring(space).replaceFirst("^ +", "");
    if (token.isEmpty()) {
      throw UnauthenticatedException.of(UnauthenticatedException.MISSING_TOKEN, null);
    }
    return token;
  }

  /** SPEC 5.4 step 2: the key is found by the header's {@code kid}, and only for a JWS. */
  private static Locator<Key> keysById(PublicKeyLocator keys) {
    return new LocatorAdapter<>() {
      @Override
      protected Key locate(JwsHeader header) {
        String kid = header.getKeyId();
        if (kid == null || kid.isEmpty()) {
          return null; // JJWT refuses a token whose key is not found.
        }
        Optional<PublicKey> key = keys.find(kid);
        return Objects.requireNonNull(key, "PublicKeyLocator.find returned null").orElse(null);
      }
    };
  }

  /**
   * Sets a verifier's policy; {@link #build()} makes the immutable verifier. A builder is not
   * thread-safe; use it once, at start-up.
   */
  public static final class Builder {
    private String issuer;
    private Clock clock = Clock.systemUTC();
    private PublicKeyLocator keys;
    private Duration skew = DEFAULT_CLOCK_SKEW;
    private Duration maxTokenLifetime = DEFAULT_MAX_TOKEN_LIFETIME;

    private Builder() {}

    /**
     * Required: the issuer address that {@code iss} must equal exactly (SPEC 5.4 step 3), such as
     * {@code https://identity.example.com}.
     */
    public Builder issuer(String issuer) {
      if (issuer == null || issuer.isBlank()) {
        throw new IllegalArgumentException("the issuer must not be blank");
      }
      this.issuer = issuer;
      return this;
    }

    /** The clock that decides expiry; default {@link Clock#systemUTC()}. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Required: where the verification keys are found by {@code kid} (SPEC 5.4 step 2). */
    public Builder keyLocator(PublicKeyLocator keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /**
     * How far {@code exp} may lie in the past, and {@code nbf} in the future, for clocks that
     * disagree; default 60 seconds.
     *
     * @param skew zero or more whole seconds
     */
    public Builder allowedClockSkew(Duration skew) {
      if (skew.isNegative() || skew.getNano() != 0) {
        throw new IllegalArgumentException("the clock skew must be zero or more whole seconds");
      }
      this.skew = skew;
      return this;
    }

    /**
     * The longest lifetime the issuer gives a token; default 24 hours (SPEC 8). A token whose
     * {@code exp} lies further ahead than this plus the clock skew is refused: it was not issued by
     * a well-configured issuer, or its {@code exp} is in milliseconds. Set it to the issuer's
     * longest configured lifetime.
     *
     * @param lifetime more than zero
     */
    public Builder maxTokenLifetime(Duration lifetime) {
      if (lifetime.isNegative() || lifetime.isZero()) {
        throw new IllegalArgumentException("the longest token lifetime must be more than zero");
      }
      this.maxTokenLifetime = lifetime;
      return this;
    }

    /**
     * The verifier, immutable and thread-safe.
     *
     * @throws IllegalStateException when the issuer or the key locator is not set
     */
    public BearerVerifier build() {
      if (issuer == null) {
        throw new IllegalStateException("a BearerVerifier needs an issuer");
      }
      if (keys == null) {
        throw new IllegalStateException("a BearerVerifier needs a key locator");
      }
      return new BearerVerifier(this);
    }
  }
}
