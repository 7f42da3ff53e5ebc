package dev.platform.identity.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A token the service would never mint, signed with one of its own keys: the claims of a token its
 * token endpoint did mint, with one rule broken. Immutable; each method returns a new forgery, and
 * {@link #sign()} gives the compact token. Made by {@link LocalIdentity#forge(TestAccount)}.
 *
 * <p>Times are far enough past the verifier's default clock skew (60 s) that a verifier with that
 * skew refuses them; the clock is the one the kit was given, so a test with a fixed clock forges
 * tokens relative to it.
 */
public final class Forgery {
  /** How far before now an expired token expired, and after now a future token starts. */
  static final Duration MARGIN = Duration.ofMinutes(10);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final ObjectNode claims;
  private final String kid;
  private final PrivateKey key;
  private final Clock clock;
  private final Function<String, PrivateKey> keys;

  private Forgery(
      ObjectNode claims,
      String kid,
      PrivateKey key,
      Clock clock,
      Function<String, PrivateKey> keys) {
    this.claims = claims;
    this.kid = kid;
    this.key = key;
    this.clock = clock;
    this.keys = keys;
  }

  /**
   * The claims of {@code genuine}, to be signed by {@code key} under {@code kid}; {@code keys}
   * gives the service's other private keys by kid.
   */
  static Forgery of(
      String genuine, String kid, PrivateKey key, Clock clock, Function<String, PrivateKey> keys) {
    String[] parts = genuine.split("\\.");
    try {
      JsonNode payload = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
      return new Forgery((ObjectNode) payload, kid, key, clock, keys);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a token of the service", e);
    }
  }

  /** Expired ten minutes ago (and issued five minutes before that). */
  public Forgery expired() {
    long exp = clock.instant().minus(MARGIN).getEpochSecond();
    return with(copy -> times(copy, exp - 300, exp));
  }

  /** Valid only from ten minutes from now ({@code nbf} and {@code iat}). */
  public Forgery notYetValid() {
    long nbf = clock.instant().plus(MARGIN).getEpochSecond();
    return with(copy -> times(copy, nbf, nbf + 300));
  }

  /** Without {@code scope} in {@code scopes}, {@code permissions} and {@code scope}. */
  public Forgery withoutScope(String scope) {
    return with(
        copy -> {
          for (String name : new String[] {"scopes", "permissions"}) {
            if (copy.get(name) instanceof ArrayNode list) {
              for (int i = list.size() - 1; i >= 0; i--) {
                if (scope.equals(list.get(i).asText())) {
                  list.remove(i);
                }
              }
            }
          }
          if (copy.hasNonNull("scope")) {
            copy.put(
                "scope",
                String.join(
                    " ",
                    Arrays.stream(copy.get("scope").asText().split(" "))
                        .filter(granted -> !granted.equals(scope))
                        .toList()));
          }
        });
  }

  /** Of {@code organization} alone: {@code organization_id} and {@code accessible_orgs}. */
  public Forgery otherOrganization(String organization) {
    return with(
        copy -> {
          copy.put("organization_id", organization);
          copy.putArray("accessible_orgs").add(organization);
        });
  }

  /** With {@code iss} another issuer's. */
  public Forgery otherIssuer(String issuer) {
    return with(copy -> copy.put("iss", issuer));
  }

  /**
   * Signed by the service's key {@code kid} (its private half read from the service's database),
   * such as a key revoked by {@link LocalIdentity#revokeKey}: a token its verifier must refuse once
   * the key has left the key set.
   */
  public Forgery signedByKey(String kid) {
    return new Forgery(claims, kid, keys.apply(kid), clock, keys);
  }

  /** The compact token: RS256, with the service's header shape and a fresh {@code jti}. */
  public String sign() {
    ObjectNode header =
        JSON.createObjectNode().put("alg", "RS256").put("typ", "JWT").put("kid", kid);
    ObjectNode payload = claims.deepCopy().put("jti", UUID.randomUUID().toString());
    String input = encode(header) + "." + encode(payload);
    try {
      Signature rs256 = Signature.getInstance("SHA256withRSA");
      rs256.initSign(key);
      rs256.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + BASE64URL.encodeToString(rs256.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("RS256 signing failed with key " + kid, e);
    }
  }

  /** The claims as they will be signed, for a test that checks what it forged. */
  public JsonNode claims() {
    return claims.deepCopy();
  }

  private Forgery with(Consumer<ObjectNode> change) {
    ObjectNode copy = claims.deepCopy();
    change.accept(copy);
    return new Forgery(copy, kid, key, clock, keys);
  }

  private static void times(ObjectNode claims, long start, long exp) {
    claims.put("iat", start).put("nbf", start).put("exp", exp);
  }

  private static String encode(JsonNode node) {
    try {
      return BASE64URL.encodeToString(JSON.writeValueAsBytes(node));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
