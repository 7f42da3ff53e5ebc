package dev.platform.identity.key;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * What the key ring knows at one instant, computed from the stored rows and that instant alone, so
 * every node with the same rows and clock computes the same: the current key (decrypted, or opened
 * in its token), the published keys and the list's JSON, serialized once. It holds until {@link
 * #changesAt}, the next publication, activation or expiry among the rows; then the ring recomputes
 * it from the same rows.
 */
final class KeyRingSnapshot {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger LOG = Logger.getLogger(KeyRingSnapshot.class.getName());

  private final List<SigningKey> rows;
  private final Instant at;
  private final Instant changesAt;
  private final Instant listChangesAt;
  private final CurrentKey current;

  /** The kid of the key that should sign now but whose token did not give its private half. */
  private final String unopened;

  private final List<String> listed;
  private final byte[] keySetJson;
  private final Map<String, PublicKeyRecord> records;

  private KeyRingSnapshot(
      List<SigningKey> rows,
      Instant at,
      CurrentKey current,
      String unopened,
      List<SigningKey> listed,
      byte[] keySetJson) {
    this.rows = rows;
    this.at = at;
    this.changesAt =
        next(rows, at, key -> Stream.of(key.publishedAt(), key.activeFrom(), expiry(key)));
    this.listChangesAt = next(rows, at, key -> Stream.of(key.publishedAt(), expiry(key)));
    this.current = current;
    this.unopened = unopened;
    this.listed = listed.stream().map(SigningKey::kid).toList();
    this.keySetJson = keySetJson;
    this.records = new LinkedHashMap<>();
    for (SigningKey key : listed) {
      records.put(key.kid(), PublicKeyRecord.from(key, isCurrent(key)));
    }
  }

  /**
   * The ring as {@code rows} make it at {@code at}. From {@code previous}, what has not changed is
   * reused: all of it when the rows are the same, else the decrypted current key and the serialized
   * list if they stay.
   */
  static KeyRingSnapshot of(
      List<SigningKey> rows, Instant at, KeyRingSnapshot previous, PrivateKeys privateKeys) {
    if (previous != null
        && previous.holdsAt(at)
        && previous.hasRows(rows)
        && previous.unopened == null) {
      return previous;
    }
    Optional<SigningKey> currentRow = SigningKey.currentAt(rows, at);
    CurrentKey current = null;
    String unopened = null;
    if (currentRow.isPresent()) {
      SigningKey key = currentRow.get();
      if (previous != null
          && previous.current != null
          && previous.current.kid().equals(key.kid())) {
        current = previous.current;
      } else if (key.home() == PrivateKeyHome.PKCS11) {
        try {
          current = privateKeys.open(key);
        } catch (IllegalStateException e) {
          // The public keys are served still; nothing signs until the key opens, or
          // KeyRotation replaces it.
          LOG.warning("No key signs on this node: " + e.getMessage());
          unopened = key.kid();
        }
      } else {
        current = privateKeys.open(key); // a wrong key-encryption key stops the start
      }
    }
    String currentKid = currentRow.map(SigningKey::kid).orElse(null);
    List<SigningKey> listed =
        rows.stream()
            .filter(key -> key.isListedAt(at))
            .sorted(
                Comparator.comparing((SigningKey key) -> !key.kid().equals(currentKid))
                    .thenComparing(SigningKey::activeFrom, Comparator.reverseOrder()))
            .toList();
    List<String> kids = listed.stream().map(SigningKey::kid).toList();
    byte[] json =
        previous != null && previous.listed.equals(kids) ? previous.keySetJson : keySetJson(listed);
    return new KeyRingSnapshot(List.copyOf(rows), at, current, unopened, listed, json);
  }

  private boolean hasRows(List<SigningKey> other) {
    if (rows.size() != other.size()) {
      return false;
    }
    for (int i = 0; i < rows.size(); i++) {
      if (!rows.get(i).isSameRow(other.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether this snapshot is what the rows make at {@code time}. */
  boolean holdsAt(Instant time) {
    return !time.isBefore(at) && (changesAt == null || time.isBefore(changesAt));
  }

  List<SigningKey> rows() {
    return rows;
  }

  int listedCount() {
    return listed.size();
  }

  Optional<CurrentKey> current() {
    return Optional.ofNullable(current);
  }

  /** The key that should sign now, when its token did not give its private half. */
  Optional<String> unopened() {
    return Optional.ofNullable(unopened);
  }

  /** SPEC 4.2: {@code {"keys":[...]}}, current key first. */
  byte[] keySetJson() {
    return keySetJson;
  }

  /** The next publication or removal, when the published list changes; null if none is due. */
  Instant listChangesAt() {
    return listChangesAt;
  }

  /** The next moment anything here changes, activation included; null if none is due. */
  Instant changesAt() {
    return changesAt;
  }

  /** SPEC 4.3: a published key by its id. */
  Optional<PublicKeyRecord> find(String kid) {
    return Optional.ofNullable(records.get(kid));
  }

  private boolean isCurrent(SigningKey key) {
    return (current != null && current.kid().equals(key.kid())) || key.kid().equals(unopened);
  }

  private static byte[] keySetJson(List<SigningKey> listed) {
    try {
      return JSON.writeValueAsBytes(Map.of("keys", listed.stream().map(Jwk::from).toList()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the key set cannot be written as JSON", e);
    }
  }

  private static Instant next(
      List<SigningKey> rows, Instant at, Function<SigningKey, Stream<Instant>> moments) {
    return rows.stream()
        .filter(key -> key.revokedAt().isEmpty())
        .flatMap(moments)
        .filter(time -> time != null && time.isAfter(at))
        .min(Comparator.naturalOrder())
        .orElse(null);
  }

  private static Instant expiry(SigningKey key) {
    return key.expiresAt().orElse(null);
  }
}
