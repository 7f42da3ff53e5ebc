package dev.platform.identity.account;

import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * Where the accounts stand in a rotation of the secret pepper: how many still have a digest under a
 * previous pepper, which each one's next successful token request moves over, and how many have one
 * under a pepper this node does not have at all, which cannot authenticate.
 */
public final class SecretPeppers {
  private static final Logger LOG = Logger.getLogger(SecretPeppers.class.getName());

  private final ServiceAccounts accounts;
  private final SecretDigest digest;

  public SecretPeppers(ServiceAccounts accounts, SecretDigest digest) {
    this.accounts = accounts;
    this.digest = digest;
  }

  /**
   * The accounts that are not deleted, by pepper. An account counts under a pepper when its current
   * digest, or its previous digest while that still authenticates at {@code now}, names it; so it
   * may count under two, but at most once in each of the totals.
   *
   * @param currentPepperId the pepper new digests are made under
   * @param onPreviousPeppers accounts with a digest under a previous pepper of this node
   * @param onUnknownPeppers accounts with a digest under a pepper this node does not have
   * @param byPepper accounts per pepper id
   */
  public record Census(
      String currentPepperId,
      long onPreviousPeppers,
      long onUnknownPeppers,
      SortedMap<String, Long> byPepper) {}

  public Census census(Instant now) {
    long onPrevious = 0;
    long onUnknown = 0;
    SortedMap<String, Long> byPepper = new TreeMap<>();
    Set<String> known = digest.pepperIds();
    for (ServiceAccounts.PepperPair pair : accounts.pepperPairs(now)) {
      Set<String> ids = new HashSet<>();
      Stream.of(pair.current(), pair.previous()).filter(Objects::nonNull).forEach(ids::add);
      ids.forEach(id -> byPepper.merge(id, pair.accounts(), Long::sum));
      if (ids.stream().anyMatch(id -> known.contains(id) && !isCurrent(id))) {
        onPrevious += pair.accounts();
      }
      if (!known.containsAll(ids)) {
        onUnknown += pair.accounts();
      }
    }
    return new Census(digest.currentPepperId(), onPrevious, onUnknown, byPepper);
  }

  /**
   * Says at start, once per pepper id, how many accounts cannot authenticate on this node because
   * their digests are under a pepper it does not have: the ids only, never a key.
   */
  public void warnOfUnknownPeppers(Instant now) {
    Set<String> known = digest.pepperIds();
    for (Map.Entry<String, Long> pepper : census(now).byPepper().entrySet()) {
      if (!known.contains(pepper.getKey())) {
        LOG.warning(
            pepper.getValue()
                + " accounts have secrets digested under pepper id "
                + pepper.getKey()
                + ", which is neither identity/secretPepper nor in"
                + " identity/previousSecretPeppers: they cannot authenticate until their secrets"
                + " are rotated");
      }
    }
  }

  private boolean isCurrent(String pepperId) {
    return pepperId.equals(digest.currentPepperId());
  }
}
