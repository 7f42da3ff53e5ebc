package dev.platform.identity.console;

import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.verify.DpopRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;

/**
 * How a console request presents its session's DPoP-bound token to the administration API's check
 * (RFC 9449 §7), in process: as {@code DPoP <token>}, with a new proof by the session's key, of a
 * new {@code jti}, for the request's method and its URL as {@link AdminAuth#dpopTarget} publishes
 * it, so that proof and target are made the one way the API's own callers' are judged.
 */
final class SessionProofs {
  private final AdminAuth admin;
  private final Clock clock;
  private final SecureRandom random;

  SessionProofs(AdminAuth admin, Clock clock, SecureRandom random) {
    this.admin = admin;
    this.clock = clock;
    this.random = random;
  }

  /** The {@code Authorization} value of a request that presents {@code token}. */
  static String authorization(String token) {
    return "DPoP " + token;
  }

  /** The DPoP side of {@code request}, which presents {@code token} bound to {@code key}. */
  DpopRequest of(ContainerRequestContext request, SessionKey key, String token) {
    URI target = admin.dpopTarget(request);
    String proof =
        key.signer(random).proof(request.getMethod(), target, null, token, clock.instant());
    return new DpopRequest(List.of(proof), request.getMethod(), target);
  }
}
