package dev.platform.identity.token;

import java.time.Duration;

/**
 * The body of a 200 from the token endpoint (SPEC 2.2), plus {@code scope} (RFC 6749 §5.1); the
 * whole HTTP answer is a {@link TokenAnswer}. Field names become snake_case on the wire.
 *
 * @param accessToken the JWT
 * @param tokenType {@code DPoP} when the token is bound to a DPoP proof's key (RFC 9449 §5.1), else
 *     {@code Bearer}
 * @param expiresIn the lifetime in seconds
 * @param expiresAt the expiry as a Unix timestamp
 * @param scope the granted scopes, space-separated
 */
record TokenResponseBody(
    String accessToken, String tokenType, long expiresIn, long expiresAt, String scope) {

  static TokenResponseBody from(TokenIssuer.IssuedToken token) {
    return new TokenResponseBody(
        token.value(),
        token.dpopBound() ? "DPoP" : "Bearer",
        Duration.between(token.issuedAt(), token.expiresAt()).toSeconds(),
        token.expiresAt().getEpochSecond(),
        token.granted().spaceSeparated());
  }
}
