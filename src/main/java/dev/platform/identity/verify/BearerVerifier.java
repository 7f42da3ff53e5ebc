package dev.platform.identity.verify;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.platform.identity.jose.CompactJws;
import dev.platform.identity.jose.DpopNonces;
import dev.platform.identity.jose.DpopProof;
import dev.platform.identity.jose.DpopProofException;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.jose.DpopReplays;
import dev.platform.identity.jose.JwsException;
import dev.platform.identity.jose.Providers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

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
 *
 * <p><b>The verified-token cache</b>. A backend sends one token thousands of times, so a token that
 * verified is remembered, keyed by the whole compact token (never a prefix or a digest an attacker
 * could collide), for at most the token's life: until {@code exp} plus the skew. A hit re-checks
 * everything that can change between two calls, and is a miss when any fails: the token's {@code
 * kid} still gives the same key from the {@link PublicKeyLocator} (so a revoked or replaced key
 * ends its tokens' hits at once), {@code exp} and {@code nbf} against the clock, and the scopes
 * each call requires (the organization is the caller's, {@link VerifiedToken#requireOrganization},
 * on every call). A token that fails is never cached, so a forger cannot fill the cache; the cache
 * holds at most {@link Builder#cacheSize} tokens (10,000 by default) and drops the least useful
 * first (Caffeine's W-TinyLFU). {@link Builder#cache cache(false)} turns it off.
 *
 * <p><b>Certificate-bound tokens</b> (RFC 8705 §3). A token whose {@code cnf} holds {@code
 * x5t#S256} passes only with the client certificate of that {@link CertificateThumbprint}, given
 * with the token ({@link #verify(String, X509Certificate, Collection)}); without it, or with
 * another, it fails with {@link UnauthenticatedException} (401, {@code invalid_token}). The methods
 * without a certificate verify as for a request that presented none. A {@code cnf} of any other
 * shape, or naming another confirmation method, makes the token invalid. An unbound token passes
 * unless {@link Builder#requireCertificateBinding} says otherwise. Checked on every verification, a
 * cache hit included, after the steps above and before the revocation check; a hit with the same
 * certificate object as the last call costs one 32-byte comparison more.
 *
 * <p><b>DPoP-bound tokens</b> (RFC 9449 §7). A token whose {@code cnf} holds {@code jkt} is bound
 * to a key its client proves it holds on every call: it passes only as {@code Authorization: DPoP
 * <token>} (the scheme in any case, RFC 9110 §11.1), through {@link #verify(String, DpopRequest,
 * X509Certificate, Collection)}, with exactly one {@code DPoP} header holding a proof ({@link
 * DpopProofs}: ES256, RS256 or PS256, its public {@code jwk}, {@code htm} and {@code htu} the
 * request's ({@link DpopRequest}), {@code iat} within 60 seconds back and 10 ahead, {@code ath} the
 * SHA-256 of this token, the server nonce when {@link Builder#dpopNonces} is set) whose key's RFC
 * 7638 thumbprint equals {@code cnf.jkt} (compared in constant time), and whose {@code jti} this
 * verifier has not taken before ({@link DpopReplays}: per verifier, bounded by {@link
 * Builder#dpopReplayCacheSize}, refusing new proofs rather than forgetting one when full). Sent as
 * {@code Bearer}, or through the methods without a {@link DpopRequest}, such a token fails (RFC
 * 9449 §7.2); an unbound token sent as {@code DPoP} fails too. The proof is checked on every call,
 * a cache hit included, after the token and before the scopes; only a proof for a genuine bound
 * token of ours is remembered, so a flood of proofs without one leaves no state. A refusal is
 * {@link UnauthenticatedException} (401, {@code invalid_token} for the token, {@code
 * invalid_dpop_proof} or {@code use_dpop_nonce} for the proof), whose challenge, from that method,
 * is {@code DPoP error=..., error_description=..., algs="ES256 RS256 PS256"} for a DPoP request and
 * the Bearer challenge followed by {@code DPoP algs="..."} for any other.
 *
 * <p><b>Revocation</b> is checked when a {@link RevocationFeed} is given ({@link
 * Builder#revocations}), after the steps above and on every verification, a cache hit included: a
 * token whose {@code jti} the feed lists, or whose account it lists with a later {@code not_before}
 * than the token's {@code iat}, fails with {@link UnauthenticatedException} "token revoked" (401).
 * A hit costs two hash lookups more, none when the feed is empty.
 *
 * <p><b>The cold path</b> reads the header once with Jackson's streaming parser, checks the
 * signature through one JCA provider with reused engines (ACCP when it is on the class path and
 * loads, else the JDK's; {@link Builder#provider}), and reads the claims in one streaming pass.
 */
public final class BearerVerifier {
  /** The only signature algorithm accepted (SPEC 2.5). */
  public static final String ALGORITHM = "RS256";

  private static final Set<String> ALGORITHMS = Set.of(ALGORITHM);

  /** The default longest token lifetime: SPEC 8's access token lifetime. */
  public static final Duration DEFAULT_MAX_TOKEN_LIFETIME = Duration.ofHours(24);

  /** The default allowed clock skew. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);

  /** The default number of verified tokens remembered. */
  public static final int DEFAULT_CACHE_SIZE = 10_000;

  /**
   * Longer tokens are refused before any parsing. Ours are 1 to 2 KB; servlet containers cap a
   * whole header at 8 KB by default anyway.
   */
  static final int MAX_TOKEN_LENGTH = 8192;

  private static final String SCHEME = "Bearer";

  private static final String DPOP_SCHEME = "DPoP";

  /** RFC 9449 §7.1: the {@code algs} of the DPoP challenge, those {@link DpopProofs} takes. */
  public static final String DPOP_ALGORITHMS = "ES256 RS256 PS256";

  private final String issuer;
  private final Clock clock;
  private final PublicKeyLocator keys;
  private final Rs256 signatures;
  private final long skewMillis;

  /** The latest acceptable {@code exp}, from now: the longest token lifetime plus the skew. */
  private final long latestExpiryMillis;

  /** Verified tokens by the whole compact token; null when the cache is off. */
  private final Cache<TokenKey, Verified> verified;

  /** The revocation feed every verification checks; null when there is none. */
  private final RevocationFeed revocations;

  /**
   * Whether an unbound token is refused (RFC 8705 §3, {@link Builder#requireCertificateBinding}).
   */
  private final boolean bindingRequired;

  /** Checks the proofs of DPoP requests, by this verifier's clock. */
  private final DpopProofs dpopProofs;

  /** The {@code jti}s of the proofs taken, bounded. */
  private final DpopReplays dpopReplays;

  /** The server nonces a proof must carry; null when none is asked. */
  private final DpopNonces dpopNonces;

  /** The last certificate presented with a bound token, and its digest. */
  private final AtomicReference<Presented> lastPresented = new AtomicReference<>();

  /** The header of the last token that verified cold, so the next one's is not read again. */
  private final AtomicReference<CompactJws.Header> lastHeader = new AtomicReference<>();

  /**
   * A token as a cache key: equal to another when the whole text is equal ({@link String#equals},
   * which the JIT compares many bytes at a time), hashed on its last 16 characters only. Hashing
   * all of a 1.2 KB token cost more than the rest of a hit; the end of a genuine token is its
   * signature's, which no one can choose without the issuer's key, and only genuine tokens are
   * stored, so entries spread as with a full hash. A forger who makes tokens with a stored token's
   * ending only makes his own lookups compare against that one entry.
   */
  private record TokenKey(String token) {
    @Override
    public int hashCode() {
      int hash = 0;
      for (int i = Math.max(0, token.length() - 16); i < token.length(); i++) {
        hash = 31 * hash + token.charAt(i);
      }
      return hash;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof TokenKey key && token.equals(key.token);
    }
  }

  /**
   * A token that verified, and what a hit must check again: with a revocation feed, its {@code
   * jti}, its {@code iat} ({@link Long#MIN_VALUE} when absent) and the feed's hash of its client
   * id, computed once here rather than on every hit.
   */
  private record Verified(
      VerifiedToken token,
      String kid,
      PublicKey key,
      long notBeforeMillis,
      long expiresMillis,
      String tokenId,
      long issuedAt,
      String subjectHash,
      byte[] thumbprint,
      byte[] keyThumbprint,
      String accessTokenHash) {}

  /** A presented certificate and its SHA-256 digest, so the same object is not hashed again. */
  private record Presented(X509Certificate certificate, byte[] digest) {}

  private BearerVerifier(Builder builder) {
    this.issuer = builder.issuer;
    this.clock = builder.clock;
    this.keys = builder.keys;
    this.signatures = new Rs256(builder.provider != null ? builder.provider : Providers.rsa());
    this.skewMillis = builder.skew.toMillis();
    this.latestExpiryMillis = builder.maxTokenLifetime.plus(builder.skew).toMillis();
    this.revocations = builder.revocations;
    this.bindingRequired = builder.bindingRequired;
    this.dpopProofs = DpopProofs.builder().clock(builder.clock).build();
    this.dpopReplays = new DpopReplays(builder.clock, builder.dpopReplayCacheSize);
    this.dpopNonces = builder.dpopNonces;
    this.verified =
        builder.cacheSize == 0
            ? null
            : Caffeine.newBuilder()
                .maximumSize(builder.cacheSize)
                .expireAfter(Expiry.creating((TokenKey token, Verified entry) -> lifeLeft(entry)))
                // Caffeine's time is the verifier's clock, so an entry ends when exp + skew passes.
                .ticker(() -> clock.millis() * 1_000_000L)
                // Upkeep on the calling thread: no task on the common pool of an app server.
                .executor(Runnable::run)
                .build();
  }

  /**
   * A builder with the defaults: system UTC clock, 60 s skew, 24 h longest token lifetime, a cache
   * of 10,000 tokens, ACCP or the JDK's provider; issuer and keys still to be set.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Verifies the request's {@code Authorization} header (RFC 6750 §2.1: {@code Bearer <token>}, the
   * scheme in any case) and the token in it, for a request that presented no client certificate: a
   * certificate-bound token is refused ({@link #verify(String, X509Certificate, Collection)}).
   *
   * @param authorizationHeader the header's value, null when the request has none
   * @param requiredScopes scopes the operation needs, all of them; may be empty
   * @return the token's claims
   * @throws UnauthenticatedException when the header is missing or blank, names another scheme
   *     (Basic, Digest...), carries no token or a malformed one, or the token fails SPEC 5.4 steps
   *     1 to 3 or is bound to a client certificate
   * @throws AccessDeniedException when a required scope is not covered (step 4)
   */
  public VerifiedToken verify(String authorizationHeader, Collection<String> requiredScopes) {
    return verify(authorizationHeader, null, requiredScopes);
  }

  /**
   * Verifies the request's {@code Authorization} header and the token in it, with the client
   * certificate of the request's TLS connection (RFC 8705 §3): a token whose {@code cnf} names a
   * certificate's thumbprint passes only with that certificate.
   *
   * @param authorizationHeader the header's value, null when the request has none
   * @param certificate the client's certificate (the first of the request attribute {@link
   *     BearerCheck#CERTIFICATE_ATTRIBUTE}), null when it presented none
   * @param requiredScopes scopes the operation needs, all of them; may be empty
   * @return the token's claims
   * @throws UnauthenticatedException as {@link #verify(String, Collection)} does, and when the
   *     token is bound to another certificate than {@code certificate}, or is unbound and the
   *     verifier requires binding ({@link Builder#requireCertificateBinding})
   * @throws AccessDeniedException when a required scope is not covered (step 4)
   */
  public VerifiedToken verify(
      String authorizationHeader, X509Certificate certificate, Collection<String> requiredScopes) {
    return verifyToken(bearerToken(authorizationHeader), certificate, requiredScopes);
  }

  /**
   * Verifies a request that may use DPoP (RFC 9449 §7): its {@code Authorization} header, {@code
   * Bearer <token>} or {@code DPoP <token>} (either scheme in any case), the token in it, and for
   * the DPoP scheme the proof of {@code request} (see the class comment); and the token's binding
   * to {@code certificate} as {@link #verify(String, X509Certificate, Collection)} does. Every
   * refusal's challenge names the DPoP scheme too ({@link BearerTokenException#challenge()}), and
   * carries the current nonce when the verifier asks for nonces ({@link
   * BearerTokenException#dpopNonce()}).
   *
   * @param authorizationHeader the header's value, null when the request has none
   * @param request the request's {@code DPoP} headers, method and URI
   * @param certificate the client's certificate, null when it presented none
   * @param requiredScopes scopes the operation needs, all of them; may be empty
   * @return the token's claims
   * @throws UnauthenticatedException as {@link #verify(String, X509Certificate, Collection)} does,
   *     and when a token bound to a key comes as {@code Bearer}, an unbound one as {@code DPoP}, or
   *     the proof fails, is of another key than the token's, or was taken before
   * @throws AccessDeniedException when a required scope is not covered (step 4)
   */
  public VerifiedToken verify(
      String authorizationHeader,
      DpopRequest request,
      X509Certificate certificate,
      Collection<String> requiredScopes) {
    Objects.requireNonNull(requiredScopes, "requiredScopes");
    return verify(
        authorizationHeader,
        request,
        certificate,
        token -> token.requireScopes(requiredScopes)); // SPEC 5.4 step 4
  }

  /**
   * As {@link #verify(String, DpopRequest, X509Certificate, Collection)}, the caller's own checks
   * in {@code admit} (its scopes, whether the account still stands, its revocations) run on the
   * verified token <em>before</em> a DPoP proof's {@code jti} is taken: a caller any check refuses
   * leaves nothing in the replay cache, so a token that may do nothing here, or no longer may,
   * cannot fill it. A {@link BearerTokenException} {@code admit} throws is answered as the
   * verifier's own refusals are, with the DPoP challenge; anything else it throws passes through,
   * the proof not taken.
   *
   * @param admit the caller's checks; throws to refuse
   */
  public VerifiedToken verify(
      String authorizationHeader,
      DpopRequest request,
      X509Certificate certificate,
      Consumer<VerifiedToken> admit) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(admit, "admit");
    boolean dpop = false;
    try {
      dpop = isDpop(authorizationHeader);
      String token = token(authorizationHeader);
      Verified verified = checkedToken(token, certificate);
      DpopProof proof = proven(verified, dpop ? request : null);
      admit.accept(verified.token());
      if (proof != null) {
        take(proof);
      }
      return verified.token();
    } catch (BearerTokenException e) {
      throw answered(e, dpop);
    }
  }

  /**
   * {@code e} as a verifier that takes DPoP answers it: with the DPoP challenge and, when nonces
   * are asked, the current one; for a refusal made outside the verifier, such as a filter's.
   */
  public BearerTokenException answered(BearerTokenException e, boolean dpop) {
    return e.answeredWithDpop(
        DPOP_ALGORITHMS, dpop, dpopNonces == null ? null : dpopNonces.current());
  }

  /**
   * Verifies a raw token (the compact JWS, without scheme), SPEC 5.4 steps 1 to 4, for a request
   * that presented no client certificate: a certificate-bound token is refused.
   *
   * @param token the token, such as {@code eyJ...}
   * @param requiredScopes scopes the operation needs, all of them; may be empty
   * @return the token's claims
   * @throws UnauthenticatedException when the token is missing, malformed, expired, invalid or
   *     bound to a client certificate
   * @throws AccessDeniedException when a required scope is not covered
   */
  public VerifiedToken verifyToken(String token, Collection<String> requiredScopes) {
    return verifyToken(token, null, requiredScopes);
  }

  /**
   * Verifies a raw token, SPEC 5.4 steps 1 to 4, and its binding to {@code certificate} (RFC 8705
   * §3), as {@link #verify(String, X509Certificate, Collection)} does.
   *
   * @param token the token, such as {@code eyJ...}
   * @param certificate the client's certificate, null when it presented none
   * @param requiredScopes scopes the operation needs, all of them; may be empty
   * @return the token's claims
   * @throws UnauthenticatedException when the token is missing, malformed, expired or invalid, or
   *     its binding does not hold
   * @throws AccessDeniedException when a required scope is not covered
   */
  public VerifiedToken verifyToken(
      String token, X509Certificate certificate, Collection<String> requiredScopes) {
    Objects.requireNonNull(requiredScopes, "requiredScopes");
    VerifiedToken verified = authenticate(token, certificate, true, null).token();
    verified.requireScopes(requiredScopes); // SPEC 5.4 step 4
    return verified;
  }

  /**
   * Verifies a raw token, SPEC 5.4 steps 1 to 3 and the revocation feed, but not its certificate
   * binding: for an issuer's introspection (RFC 7662) and revocation (RFC 7009) endpoints, which
   * answer about a token sent to them rather than admit its bearer, so a bound token is judged
   * there as any other. Never admit a request with it: {@link #verify(String, X509Certificate,
   * Collection)} checks the binding.
   *
   * @param token the token, such as {@code eyJ...}
   * @return the token's claims, with {@link VerifiedToken#certificateThumbprint()} when it is bound
   * @throws UnauthenticatedException when the token is missing, malformed, expired, invalid or
   *     revoked
   */
  public VerifiedToken inspectToken(String token) {
    return authenticate(token, null, false, null).token();
  }

  /**
   * SPEC 5.4 steps 1 to 3, from the cache when a hit still holds, the binding to {@code
   * certificate} when {@code binding} says so, the revocation feed, and the DPoP proof of {@code
   * dpop}, null for a request that did not use the DPoP scheme (so a key-bound token fails).
   */
  private Verified authenticate(
      String token, X509Certificate certificate, boolean binding, DpopRequest dpop) {
    if (!binding) {
      return checked(lengthChecked(token), certificate, false);
    }
    Verified checked = checkedToken(token, certificate);
    DpopProof proof = proven(checked, dpop);
    if (proof != null) {
      take(proof);
    }
    return checked;
  }

  /** {@link #checked} with the binding, the token's length checked first. */
  private Verified checkedToken(String token, X509Certificate certificate) {
    return checked(lengthChecked(token), certificate, true);
  }

  private static String lengthChecked(String token) {
    if (token == null || token.length() > MAX_TOKEN_LENGTH) {
      throw UnauthenticatedException.of(UnauthenticatedException.MALFORMED_TOKEN, null);
    }
    return token;
  }

  /**
   * All of {@link #authenticate} but the DPoP proof: SPEC 5.4 steps 1 to 3, cached or cold, the
   * certificate binding and the revocation feed.
   */
  private Verified checked(String token, X509Certificate certificate, boolean binding) {
    if (verified == null) {
      return notRevoked(bound(verifyCold(token), certificate, binding), clock.millis());
    }
    long now = clock.millis();
    TokenKey key = new TokenKey(token);
    Verified hit = verified.getIfPresent(key);
    if (hit != null) {
      if (stillHolds(hit, now)) {
        return notRevoked(bound(hit, certificate, binding), now);
      }
      verified.invalidate(key);
    }
    Verified fresh = verifyCold(token);
    // A revoked token is cached too: it is genuine, so no forger can fill the cache with such, and
    // its replays are refused at the cost of a hit rather than of a signature check. So is a bound
    // token presented without its certificate: the binding is checked on every call, hit or not.
    verified.put(key, fresh);
    return notRevoked(bound(fresh, certificate, binding), now);
  }

  /**
   * RFC 8705 §3: a token bound to a certificate passes only with that certificate, compared in
   * constant time; an unbound one passes unless binding is required. On every call, cold or cached.
   */
  private Verified bound(Verified verified, X509Certificate certificate, boolean binding) {
    if (!binding) {
      return verified;
    }
    if (verified.thumbprint() == null) {
      if (bindingRequired) {
        throw UnauthenticatedException.of(UnauthenticatedException.BINDING_REQUIRED, null);
      }
      return verified;
    }
    if (certificate == null) {
      throw UnauthenticatedException.of(UnauthenticatedException.CERTIFICATE_MISSING, null);
    }
    if (!MessageDigest.isEqual(verified.thumbprint(), digest(certificate))) {
      throw UnauthenticatedException.of(UnauthenticatedException.CERTIFICATE_MISMATCH, null);
    }
    return verified;
  }

  /**
   * The certificate's digest, hashed once per certificate object: a container that keeps the
   * connection's certificate presents the same object on every request of the connection.
   */
  private byte[] digest(X509Certificate certificate) {
    Presented last = lastPresented.get();
    if (last != null && last.certificate() == certificate) {
      return last.digest();
    }
    byte[] digest = CertificateThumbprint.digest(certificate);
    lastPresented.lazySet(new Presented(certificate, digest));
    return digest;
  }

  /**
   * The revocation feed's verdict, on every verification, cold or cached; nothing to do without a
   * feed.
   */
  private Verified notRevoked(Verified verified, long now) {
    if (revocations != null) {
      revocations.check(verified.tokenId(), verified.subjectHash(), verified.issuedAt(), now);
    }
    return verified;
  }

  /**
   * RFC 9449 §7: a token bound to a key passes only under the DPoP scheme, with a proof of that key
   * for this token and request; an unbound token never under the DPoP scheme. On every call, cold
   * or cached. Its {@code jti} is not taken here ({@link #take}) but last, after every other check,
   * the caller's included, so a request refused for any other reason leaves nothing behind.
   *
   * @return the proof, to be taken; null for an unbound token
   */
  private DpopProof proven(Verified verified, DpopRequest dpop) {
    if (verified.keyThumbprint() == null) {
      if (dpop != null) {
        throw UnauthenticatedException.of(UnauthenticatedException.DPOP_UNBOUND, null);
      }
      return null;
    }
    if (dpop == null) {
      throw UnauthenticatedException.of(UnauthenticatedException.DPOP_BOUND, null);
    }
    try {
      Optional<String> ath = Optional.of(verified.accessTokenHash());
      DpopProof proof =
          dpopNonces == null
              ? dpopProofs.check(dpop.proofs(), dpop.method(), dpop.target(), ath, Optional.empty())
              : dpopProofs.check(dpop.proofs(), dpop.method(), dpop.target(), ath, dpopNonces);
      byte[] key = proof.thumbprint().getBytes(StandardCharsets.US_ASCII);
      if (!MessageDigest.isEqual(verified.keyThumbprint(), key)) {
        throw UnauthenticatedException.proof(UnauthenticatedException.DPOP_KEY_MISMATCH, false);
      }
      return proof;
    } catch (DpopProofException e) {
      throw UnauthenticatedException.proof(
          e.getMessage(), e.reason() == DpopProofException.Reason.NONCE);
    }
  }

  /** The proof's {@code jti}, taken once in this verifier's replay cache (RFC 9449 §11.1). */
  private void take(DpopProof proof) {
    try {
      dpopReplays.claim(proof);
    } catch (DpopProofException e) {
      throw UnauthenticatedException.proof(e.getMessage(), false);
    }
  }

  /**
   * What can change between two calls: the key behind the kid, and the time (a clock set back can
   * put {@code nbf} ahead again, or {@code exp} beyond the longest lifetime).
   */
  private boolean stillHolds(Verified hit, long now) {
    if (now - skewMillis > hit.expiresMillis()
        || now + skewMillis < hit.notBeforeMillis()
        || hit.expiresMillis() > now + latestExpiryMillis) {
      return false;
    }
    PublicKey key = located(hit.kid());
    return key != null && (key == hit.key() || key.equals(hit.key()));
  }

  /**
   * How long an entry may live: through the last millisecond of {@code exp} plus the skew, by the
   * verifier's clock (Caffeine ends an entry when its time is up, not after).
   */
  private Duration lifeLeft(Verified entry) {
    return Duration.ofMillis(Math.max(0, entry.expiresMillis() + skewMillis + 1 - clock.millis()));
  }

  /**
   * SPEC 5.4 steps 1 to 3 from scratch; see the class comment for the order. The signature is
   * checked before any claim is read, so an unverified payload decides nothing but "invalid".
   */
  private Verified verifyCold(String token) {
    CompactJws jws = parsed(token);
    String kid = jws.header().kid();
    PublicKey key = located(kid);
    if (key == null
        || !signatures.verify(
            kid, key, jws.signingInput(), jws.signingInputLength(), jws.signature())) {
      throw UnauthenticatedException.invalid(
          "no key for the kid, or the signature does not verify");
    }
    TokenClaims claims = TokenClaims.read(jws.payload());
    long now = clock.millis();
    if (claims.expiresAt == null) { // Step 1: a token that never expires is not ours.
      throw UnauthenticatedException.invalid("no exp claim");
    }
    long expires = claims.expiresAt * 1000;
    if (now - skewMillis > expires) { // Step 1, as JJWT decided it: exp plus the skew is past.
      throw UnauthenticatedException.of(
          UnauthenticatedException.EXPIRED_TOKEN,
          new IllegalArgumentException("expired at " + claims.expiresAt));
    }
    long notBefore = claims.notBefore == null ? Long.MIN_VALUE : claims.notBefore * 1000;
    if (now + skewMillis < notBefore) {
      throw UnauthenticatedException.invalid("not before " + claims.notBefore);
    }
    if (expires > now + latestExpiryMillis) {
      // Step 1: no token of ours lives that long; an exp in milliseconds would pass for millennia.
      throw UnauthenticatedException.invalid("exp beyond the longest token lifetime");
    }
    if (!issuer.equals(claims.issuer)) { // Step 3
      throw UnauthenticatedException.invalid("wrong issuer");
    }
    VerifiedToken verifiedToken = claims.verifiedToken();
    Verified verified =
        new Verified(
            verifiedToken,
            kid,
            key,
            notBefore,
            expires,
            claims.tokenId,
            claims.issuedAt == null ? Long.MIN_VALUE : claims.issuedAt,
            revocations == null ? null : RevocationList.subjectHash(verifiedToken.clientId()),
            claims.certificateThumbprint == null
                ? null
                : CertificateThumbprint.decoded(claims.certificateThumbprint),
            claims.keyThumbprint == null
                ? null
                : claims.keyThumbprint.getBytes(StandardCharsets.US_ASCII),
            claims.keyThumbprint == null ? null : DpopProofs.accessTokenHash(token));
    lastHeader.lazySet(jws.header());
    return verified;
  }

  /**
   * SPEC 5.4 step 2, by the JOSE rules every reader of a JWS here shares: the token taken apart,
   * its header RS256 (the algorithm is ours to choose, not the token's) with a {@code kid} and no
   * {@code crit}, since we understand no critical extension.
   */
  private CompactJws parsed(String token) {
    try {
      CompactJws jws = CompactJws.parse(token, lastHeader.get());
      jws.header().require(ALGORITHMS, Set.of());
      if (jws.header().kid() == null || jws.header().kid().isEmpty()) {
        throw UnauthenticatedException.invalid("no kid");
      }
      return jws;
    } catch (JwsException e) {
      throw refused(e);
    }
  }

  /** A token the JOSE rules refuse: "malformed" when it is no compact JWS, else "invalid". */
  static UnauthenticatedException refused(JwsException e) {
    return e.reason() == JwsException.Reason.MALFORMED
        ? UnauthenticatedException.of(UnauthenticatedException.MALFORMED_TOKEN, null)
        : UnauthenticatedException.of(UnauthenticatedException.INVALID_TOKEN, e);
  }

  /** SPEC 5.4 step 2: the key whose id is the token's {@code kid}, or null. */
  private PublicKey located(String kid) {
    Optional<PublicKey> key = keys.find(kid);
    return Objects.requireNonNull(key, "PublicKeyLocator.find returned null").orElse(null);
  }

  /** How many verified tokens the cache holds now, after its pending upkeep; for tests. */
  long cachedTokens() {
    if (verified == null) {
      return 0;
    }
    verified.cleanUp();
    return verified.estimatedSize();
  }

  /** How many DPoP proofs' {@code jti}s the replay cache holds now; for tests. */
  int dpopProofsHeld() {
    return dpopReplays.size();
  }

  /** The name of the JCA provider that checks signatures, for logs and the benchmark. */
  public String signatureProvider() {
    return signatures.providerName();
  }

  /** RFC 7235 §2.1, RFC 6750 §2.1: {@code credentials = auth-scheme 1*SP token68}. */
  private static String bearerToken(String header) {
    if (!scheme(header).equalsIgnoreCase(SCHEME)) {
      throw UnauthenticatedException.withoutToken(UnauthenticatedException.UNSUPPORTED_SCHEME);
    }
    return token(header);
  }

  /**
   * Whether the header names the DPoP scheme (RFC 9449 §7.1), or Bearer; in any case, as RFC 9110
   * §11.1 has schemes.
   *
   * @throws UnauthenticatedException when there is no header or it names another scheme
   */
  private static boolean isDpop(String header) {
    String scheme = scheme(header);
    if (scheme.equalsIgnoreCase(DPOP_SCHEME)) {
      return true;
    }
    if (!scheme.equalsIgnoreCase(SCHEME)) {
      throw UnauthenticatedException.withoutToken(UnauthenticatedException.UNSUPPORTED_SCHEMES);
    }
    return false;
  }

  /** The header's scheme: what comes before its first space. */
  private static String scheme(String header) {
    if (header == null || header.isBlank()) {
      throw UnauthenticatedException.withoutToken(UnauthenticatedException.MISSING_HEADER);
    }
    String value = header.strip();
    int space = value.indexOf(' ');
    return space < 0 ? value : value.substring(0, space);
  }

  /** What follows the scheme and its spaces. */
  private static String token(String header) {
    String value = header.strip();
    int space = value.indexOf(' ');
    int start = space < 0 ? value.length() : space;
    while (start < value.length() && value.charAt(start) == ' ') {
      start++;
    }
    if (start == value.length()) {
      throw UnauthenticatedException.of(UnauthenticatedException.MISSING_TOKEN, null);
    }
    return value.substring(start);
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
    private int cacheSize = DEFAULT_CACHE_SIZE;
    private Provider provider;
    private RevocationFeed revocations;
    private boolean bindingRequired;
    private int dpopReplayCacheSize = DpopReplays.DEFAULT_MAX_ENTRIES;
    private DpopNonces dpopNonces;

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
     * Whether verified tokens are remembered until they expire (class comment); default true.
     * {@code cache(false)} verifies every call from scratch; {@code cache(true)} restores the
     * default size.
     */
    public Builder cache(boolean enabled) {
      this.cacheSize = enabled ? DEFAULT_CACHE_SIZE : 0;
      return this;
    }

    /**
     * How many verified tokens are remembered at most; default 10,000. Each holds the token's text
     * and claims, about 3 KB; zero turns the cache off.
     *
     * @param tokens zero or more
     */
    public Builder cacheSize(int tokens) {
      if (tokens < 0) {
        throw new IllegalArgumentException("the cache size must be zero or more");
      }
      this.cacheSize = tokens;
      return this;
    }

    /**
     * The JCA provider that checks RS256 signatures. By default ACCP (Amazon Corretto Crypto
     * Provider) when it is on the class path and its native library loads and passes its
     * self-tests, else the JDK's {@code SunRsaSign}. The provider is used directly, never
     * installed.
     *
     * @throws IllegalArgumentException at {@link #build()} when it has no {@code SHA256withRSA}
     */
    public Builder provider(Provider provider) {
      this.provider = Objects.requireNonNull(provider, "provider");
      return this;
    }

    /**
     * Refuses revoked tokens: every verification, cold or from the cache, asks {@code feed} too
     * (see {@link RevocationFeed}); a revoked token fails with {@link UnauthenticatedException}
     * "token revoked" (401), and while the feed is stale its {@link RevocationFeed.Stale} rule
     * applies. Off by default. The feed must be of this verifier's issuer and use its clock; it is
     * the caller's to close.
     */
    public Builder revocations(RevocationFeed feed) {
      this.revocations = Objects.requireNonNull(feed, "feed");
      return this;
    }

    /**
     * Whether every token must be bound to the request's client certificate (RFC 8705 §3): with
     * {@code true}, a token without {@code cnf} fails with {@link UnauthenticatedException} (401,
     * {@code invalid_token}), as does any token verified without a certificate. Off by default: an
     * unbound token passes, and a bound one passes only with its certificate either way.
     */
    public Builder requireCertificateBinding(boolean required) {
      this.bindingRequired = required;
      return this;
    }

    /**
     * How many DPoP proofs' {@code jti}s are remembered at most, each until its proof is too old to
     * be taken (about 70 seconds); default {@link DpopReplays#DEFAULT_MAX_ENTRIES}, some 20 MB when
     * full. When full, new proofs are refused ({@code invalid_dpop_proof}, "try again shortly")
     * rather than a remembered one forgotten, which would let it be replayed.
     *
     * @param proofs one or more
     */
    public Builder dpopReplayCacheSize(int proofs) {
      if (proofs < 1) {
        throw new IllegalArgumentException("the DPoP replay cache needs room for one proof");
      }
      this.dpopReplayCacheSize = proofs;
      return this;
    }

    /**
     * Asks every DPoP proof for a server nonce (RFC 9449 §9): one {@code nonces} gives out and
     * still takes. A proof without it is refused with {@code use_dpop_nonce}, and every refusal
     * gives the current nonce in {@code DPoP-Nonce}. Off by default. For one node, {@link
     * DpopNonces#random}; for nodes behind one name, the same key on each.
     */
    public Builder dpopNonces(DpopNonces nonces) {
      this.dpopNonces = Objects.requireNonNull(nonces, "nonces");
      return this;
    }

    /**
     * The verifier, immutable and thread-safe.
     *
     * @throws IllegalStateException when the issuer or the key locator is not set, or the
     *     revocation feed is of another issuer or has another clock
     */
    public BearerVerifier build() {
      if (issuer == null) {
        throw new IllegalStateException("a BearerVerifier needs an issuer");
      }
      if (keys == null) {
        throw new IllegalStateException("a BearerVerifier needs a key locator");
      }
      if (revocations != null && !revocations.issuer().equals(issuer)) {
        throw new IllegalStateException(
            "the revocation feed is of the issuer "
                + revocations.issuer()
                + ", not of this verifier's "
                + issuer);
      }
      if (revocations != null && !revocations.clock().equals(clock)) {
        throw new IllegalStateException(
            "the revocation feed and the verifier must share one clock: give both the same");
      }
      return new BearerVerifier(this);
    }
  }
}
