package dev.platform.identity.token;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.key.CurrentKey;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.scope.GrantedScopes;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;

/** Builds the claims of SPEC 2.5 and signs them with the key ring's current key (RS256). */
final class TokenIssuer {
  static final String RS256 = "RS256";

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final URI issuer;
  private final Duration lifetime;
  private final Duration adminLifetime;
  private final KeyRing keys;
  private final Clock clock;
  private final TokenMeters meters;

  /**
   * @param lifetime of every token (SPEC 8)
   * @param adminLifetime of a token granted an {@code identity:} scope, at most {@code lifetime}: a
   *     stolen administrator's token is worth the least
   * @param meters where each signature is timed
   */
  TokenIssuer(
      URI issuer,
      Duration lifetime,
      Duration adminLifetime,
      KeyRing keys,
      Clock clock,
      TokenMeters meters) {
    this.meters = meters;
    this.issuer = issuer;
    this.lifetime = lifetime;
    this.adminLifetime = adminLifetime;
    this.keys = keys;
    this.clock = clock;
  }

  /** A signed access token for {@code account} carrying the granted {@code scopes}. */
  IssuedToken issue(ServiceAccount account, GrantedScopes granted) {
    return issue(account, granted, AccessTokenClaims.Binding.NONE);
  }

  /**
   * As {@link #issue(ServiceAccount, GrantedScopes)}, bound as {@code binding} says: to a client
   * certificate (RFC 8705 §3), a DPoP key (RFC 9449 §6), both or neither.
   */
  IssuedToken issue(
      ServiceAccount account, GrantedScopes granted, AccessTokenClaims.Binding binding) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    boolean administers =
        granted.scopes().stream().anyMatch(scope -> scope.startsWith("identity:"));
    Instant expiry = now.plus(administers ? adminLifetime : lifetime);
    CurrentKey key = keys.current();
    AccessTokenClaims claims =
        AccessTokenClaims.of(
            issuer, account, granted, UUID.randomUUID().toString(), now, expiry, binding);
    String jwt = sign(new JwsHeader(RS256, "JWT", key.kid()), claims, key);
    return new IssuedToken(jwt, now, expiry, granted, binding.dpopKey().isPresent());
  }

  /**
   * RFC 7515 §7.1 compact serialization: base64url header and payload, each as Jackson writes it,
   * signed with SHA256withRSA through the current key's provider (the key ring's, or its PKCS#11
   * token's). Written here rather than through JJWT's builder, whose claims map, stream codecs and
   * header serialization cost more than the rest of the token (docs/performance.md); the tests
   * verify the tokens with {@code BearerVerifier} and with Nimbus JOSE+JWT.
   */
  private String sign(JwsHeader header, AccessTokenClaims claims, CurrentKey key) {
    byte[] signingInput = dotted(BASE64URL.encode(json(header)), BASE64URL.encode(json(claims)));
    try {
      Signature rs256 = key.rs256();
      rs256.update(signingInput);
      long start = System.nanoTime();
      byte[] signature = rs256.sign();
      meters.signed(start);
      byte[] jws = dotted(signingInput, BASE64URL.encode(signature));
      return new String(jws, StandardCharsets.US_ASCII);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("RS256 signing failed with key " + header.kid(), e);
    }
  }

  /** {@code left.right}, in ASCII bytes. */
  private static byte[] dotted(byte[] left, byte[] right) {
    byte[] joined = Arrays.copyOf(left, left.length + 1 + right.length);
    joined[left.length] = '.';
    System.arraycopy(right, 0, joined, left.length + 1, right.length);
    return joined;
  }

  private static byte[] json(Object value) {
    try {
      return TokenAnswer.JSON.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The JOSE header (RFC 7515 §4.1) of every token: SPEC 2.5's alg, typ and kid. */
  record JwsHeader(String alg, String typ, String kid) {}

  /**
   * A signed token, when it was issued and expires, what it grants, and whether it is bound to a
   * DPoP key (its {@code token_type} is then {@code DPoP}).
   */
  record IssuedToken(
      String value,
      Instant issuedAt,
      Instant expiresAt,
      GrantedScopes granted,
      boolean dpopBound) {}
}
