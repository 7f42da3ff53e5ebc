package dev.platform.identity.token;

import dev.platform.identity.account.ClientJwks;
import java.net.URI;
import java.time.Clock;

/** Issue 22: the key sets private_key_jwt clients publish at their jwks_uri. (Being wired.) */
public final class ClientKeySets {
  private final boolean allowPrivate;
  private final Clock clock;

  public ClientKeySets(boolean allowPrivate, Clock clock) {
    this.allowPrivate = allowPrivate;
    this.clock = clock;
  }

  public ClientJwks at(URI uri, boolean refresh) {
    throw new IllegalStateException("not yet " + allowPrivate + clock);
  }

  public void check(URI uri) {}
}
