package dev.platform.identity.jose;

import java.time.Instant;

/**
 * A DPoP proof that {@link DpopProofs} checked (RFC 9449 §4.3), not yet checked for replay ({@link
 * DpopReplays}).
 *
 * @param thumbprint the JWK SHA-256 thumbprint of its {@code jwk} (RFC 7638), to bind a token to
 *     ({@code cnf.jkt}, RFC 9449 §6) or to compare with a token's
 * @param jti its {@code jti}
 * @param issuedAt its {@code iat}
 * @param usableUntil the last instant at which the checker would still take it: a replay cache need
 *     remember its {@code jti} no longer
 */
public record DpopProof(String thumbprint, String jti, Instant issuedAt, Instant usableUntil) {}
