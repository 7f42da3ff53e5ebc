package dev.platform.identity.token;

import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.ServiceAccount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The key of a private_key_jwt account that an assertion's header chooses, from the set stored with
 * the account or from the one its {@code jwks_uri} publishes. A stored set is parsed once and kept
 * by its text, so a changed set is parsed anew; a published one comes from {@link Published}, which
 * schedules a refetch when the chosen key is missing (a client that added a key) and never makes
 * the request wait for it.
 */
final class AccountKeys {
  private static final Logger LOG = Logger.getLogger(AccountKeys.class.getName());
  private static final int MAX_PARSED = 1000;

  /** The key sets clients publish, fetched and cached. */
  @FunctionalInterface
  public interface Published {
    /**
     * The cached set at {@code uri}, at once; {@code refresh} asks for a fetch even while the
     * cached one is fresh (the fetcher bounds how often, and fetches in the background).
     *
     * @throws RuntimeException when no set can be had: a {@link ClientKeysUnavailableException}
     *     when none was fetched yet or the last one is too old
     */
    ClientJwks at(URI uri, boolean refresh);
  }

  private final Published published;
  private final Map<String, ClientJwks> parsed =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ClientJwks> eldest) {
          return size() > MAX_PARSED;
        }
      };

  AccountKeys(Published published) {
    this.published = published;
  }

  /**
   * The key for {@code kid} and {@code alg}, empty when the account has none such.
   *
   * @throws OAuthError {@code invalid_client} when the account's published set is not available
   */
  Optional<ClientJwks.ClientKey> find(
      UUID clientId, ServiceAccount.Credential credential, Optional<String> kid, String alg) {
    if (credential.jwks() != null) {
      return stored(credential.jwks()).find(kid, alg);
    }
    URI uri = URI.create(credential.jwksUri());
    try {
      Optional<ClientJwks.ClientKey> key = published.at(uri, false).find(kid, alg);
      // A missing kid only schedules a refetch; this request gets the set as it is.
      return key.isPresent() ? key : published.at(uri, true).find(kid, alg);
    } catch (ClientKeysUnavailableException e) {
      // No set yet, or one past its maximum age: said plainly, at once.
      LOG.fine("The key set of service account " + clientId + " is unavailable: " + e.getMessage());
      throw ReceivedAssertion.refused(e.description());
    } catch (RuntimeException e) {
      // RemoteClientKeys logs each failed fetch once; a request that meets it again adds nothing.
      LOG.fine("The key set of service account " + clientId + " cannot be had from " + uri);
      return Optional.empty();
    }
  }

  private ClientJwks stored(String jwks) {
    synchronized (parsed) {
      ClientJwks keys = parsed.get(jwks);
      if (keys == null) {
        keys = parse(jwks);
        parsed.put(jwks, keys);
      }
      return keys;
    }
  }

  private static ClientJwks parse(String jwks) {
    try {
      return ClientJwks.parse(jwks.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // Checked when it was stored: a set that no longer parses is the database's fault.
      throw new UncheckedIOException("a stored key set no longer parses", e);
    }
  }
}
