package dev.platform.identity.token;

import dev.platform.identity.account.ClientJwks;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;

/**
 * Issue 22: the key sets private_key_jwt clients publish at their {@code jwks_uri}: checked before
 * a URL is stored ({@link #check}), fetched over https with {@link ClientKeySetFetch}'s bounds,
 * parsed as strictly as a registered set, and cached per URL by {@link RemoteClientKeys}.
 */
public final class ClientKeySets {
  private final boolean allowPrivate;
  private final RemoteClientKeys<ClientJwks> cache;

  /**
   * @param allowPrivate {@code identity/allowPrivateJwksUris}: whether a URL may name an internal
   *     address
   */
  public ClientKeySets(boolean allowPrivate, Clock clock) {
    this.allowPrivate = allowPrivate;
    this.cache =
        new RemoteClientKeys<>(
            ClientKeySetFetch.builder(ClientJwks::parse).allowPrivate(allowPrivate).build(), clock);
  }

  /**
   * The set at {@code uri}, refetched when {@code refresh} says a key was missing (at most once a
   * minute per URL).
   *
   * @throws ClientKeysUnavailableException when no set was ever had from it
   */
  public ClientJwks at(URI uri, boolean refresh) {
    return cache.get(uri, refresh);
  }

  /**
   * Refuses a URL that is not https or whose host resolves to an internal address, unless those are
   * allowed.
   *
   * @throws IllegalArgumentException saying why
   */
  public void check(URI uri) {
    ClientKeySetFetch.checkUri(uri, allowPrivate, InetAddress::getAllByName);
  }
}
