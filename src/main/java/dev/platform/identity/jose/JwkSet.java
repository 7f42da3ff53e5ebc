package dev.platform.identity.jose;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A JWK Set (RFC 7517 §5) read as a fetched one must be: an object with a {@code keys} array, of
 * which each user keeps the entries it can use and skips the others, as RFC 7517 §5 lets a reader
 * do, so that one odd entry does not cost the rest.
 */
public final class JwkSet {
  private JwkSet() {}

  /**
   * The usable entries of a set.
   *
   * @param entries the entries in the set's order, each as {@code reader} made it
   * @param json the JSON of each usable entry, in the same order
   * @param firstReason why the first skipped entry was skipped, or null
   */
  public record Usable<K>(List<K> entries, List<JsonNode> json, String firstReason) {}

  /**
   * The entries of {@code body} that {@code reader} can use; it refuses one with an {@link
   * IllegalArgumentException} saying why.
   *
   * @throws IOException when the body is no JSON, names a member twice at any depth (a second
   *     {@code keys} or {@code n} would give this reader other keys than a reader that takes the
   *     first), is no set, or holds more than {@code maxEntries}
   */
  public static <K> Usable<K> read(byte[] body, int maxEntries, Function<JsonNode, K> reader)
      throws IOException {
    JsonNode set;
    try {
      set = StrictJson.TREES.readTree(body);
    } catch (JsonProcessingException e) {
      // Jackson's message repeats what it read, such as a member's name: not for a log line.
      throw new IOException("jwks is not JSON, or names a member twice", e);
    }
    if (set == null || !set.isObject() || !set.path("keys").isArray()) {
      throw new IOException("jwks must be an object with a 'keys' array");
    }
    JsonNode keys = set.path("keys");
    if (keys.size() > maxEntries) {
      throw new IOException("jwks holds more than " + maxEntries + " entries");
    }
    List<K> usable = new ArrayList<>();
    List<JsonNode> json = new ArrayList<>();
    String firstReason = null;
    for (JsonNode jwk : keys) {
      try {
        usable.add(reader.apply(jwk));
        json.add(jwk);
      } catch (IllegalArgumentException e) {
        firstReason = firstReason == null ? e.getMessage() : firstReason;
      }
    }
    return new Usable<>(List.copyOf(usable), List.copyOf(json), firstReason);
  }
}
