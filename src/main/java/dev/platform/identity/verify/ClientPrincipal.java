package dev.platform.identity.verify;

import java.security.Principal;
import java.util.Objects;

/**
 * The caller of a request whose bearer token passed: named for the token's client id ({@link
 * VerifiedToken#clientId}), and holding the token. The ready-made filters give it to the request as
 * its user principal.
 *
 * @param token the verified token
 */
public record ClientPrincipal(VerifiedToken token) implements Principal {
  public ClientPrincipal {
    Objects.requireNonNull(token, "token");
  }

  /** The token's client id. */
  @Override
  public String getName() {
    return token.clientId();
  }
}
