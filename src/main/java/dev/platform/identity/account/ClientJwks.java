package dev.platform.identity.account;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.identity.jose.Jwk;
import dev.platform.identity.jose.JwkSet;
import dev.platform.identity.jose.JwsAlgorithm;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The public keys a {@code private_key_jwt} client signs its assertions with (RFC 7523): a JWK set
 * (RFC 7517 §5) of RSA keys of 2048 bits or more and EC P-256 keys, each for signatures. A set is
 * checked whole: any private member, a weak or malformed key, a point off the curve, two keys with
 * one {@code kid}, or several keys of which one has no {@code kid} refuses it, naming the key and
 * the reason: what an administrator submits is stored and used as it is, so a set with an entry
 * that would never verify anything is sent back to be fixed. A set fetched from a {@code jwks_uri}
 * is read by {@link #published} instead, which skips such entries. Only the public members are kept
 * ({@link #json()}).
 */
public final class ClientJwks {
  /** RS256, PS256 and ES256: RFC 7518's asymmetric signatures this service verifies. */
  public static final List<String> ALGORITHMS =
      Arrays.stream(JwsAlgorithm.values()).map(Enum::name).toList();

  static final int MAX_KEYS = 10;

  /** The most entries of a fetched set that are read, usable or not. */
  static final int MAX_ENTRIES = 100;

  static final int MIN_RSA_BITS = Jwk.MIN_RSA_BITS;
  static final int MAX_RSA_BITS = Jwk.MAX_RSA_BITS;
  static final int MAX_KID = 200;
  static final int MAX_EXPONENT_BITS = Jwk.MAX_EXPONENT_BITS;

  /** The longest set kept: its column (migration 18) holds 20,000 characters. */
  static final int MAX_JSON = 20_000;

  private static final List<String> PRIVATE_MEMBERS = Jwk.PRIVATE_MEMBERS;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<ClientKey> keys;
  private final String json;
  private final List<X509Certificate> certificates;

  private ClientJwks(List<ClientKey> keys, String json) {
    this(keys, json, List.of());
  }

  private ClientJwks(List<ClientKey> keys, String json, List<X509Certificate> certificates) {
    this.keys = keys;
    this.json = json;
    this.certificates = certificates;
  }

  /**
   * One usable key.
   *
   * @param kid its {@code kid}, or null when the set's only key has none
   * @param key the public key
   * @param alg its {@code alg}, or null: then any of {@link #ALGORITHMS} of its type
   */
  public record ClientKey(String kid, PublicKey key, String alg) {
    /** Whether an assertion signed with {@code algorithm} may be verified with this key. */
    public boolean allows(String algorithm) {
      boolean typeFits =
          algorithm.startsWith("ES") ? key.getAlgorithm().equals("EC") : isRsa(key.getAlgorithm());
      return typeFits && (alg == null || alg.equals(algorithm));
    }

    private static boolean isRsa(String algorithm) {
      return algorithm.equals("RSA") || algorithm.equals("RSASSA-PSS");
    }
  }

  /**
   * The set as registered through the administration API.
   *
   * @throws IllegalArgumentException naming the first key that is refused and why
   */
  public static ClientJwks parse(JsonNode set) {
    return parse(set, false);
  }

  /**
   * The set of a {@code self_signed_tls_client_auth} account (RFC 8705 §2.2): checked as {@link
   * #parse(JsonNode)} does, and each key must carry in {@code x5c} exactly one certificate (base64
   * DER) whose public key is the key's own. The certificates are kept ({@link #certificates()}).
   *
   * @throws IllegalArgumentException naming the first key that is refused and why
   */
  public static ClientJwks parseCertified(JsonNode set) {
    return parse(set, true);
  }

  /**
   * A {@code self_signed_tls_client_auth} set as stored.
   *
   * @throws IOException when it is no JSON or {@link #parseCertified(JsonNode)} refuses it
   */
  public static ClientJwks parseCertified(byte[] json) throws IOException {
    try {
      return parseCertified(JSON.readTree(json));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static ClientJwks parse(JsonNode set, boolean certified) {
    if (set == null || !set.isObject() || !set.path("keys").isArray()) {
      throw new IllegalArgumentException("jwks must be an object with a 'keys' array");
    }
    JsonNode entries = set.path("keys");
    if (entries.isEmpty() || entries.size() > MAX_KEYS) {
      throw new IllegalArgumentException("jwks must hold 1 to " + MAX_KEYS + " keys");
    }
    List<ClientKey> keys = new ArrayList<>();
    ArrayNode kept = JSON.createArrayNode();
    Set<String> kids = new HashSet<>();
    List<X509Certificate> certificates = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      JsonNode jwk = entries.get(i);
      ClientKey key = key(i, jwk);
      if (certified) {
        certificates.add(certificate(i, jwk, key.key()));
      }
      if (entries.size() > 1 && key.kid() == null) {
        throw refused(i, "has no kid, and a set of several keys needs one on each");
      }
      if (key.kid() != null && !kids.add(key.kid())) {
        throw refused(i, "repeats the kid '" + quoted(key.kid()) + "'");
      }
      keys.add(key);
      ObjectNode members = publicMembers(jwk);
      if (certified) {
        members.set("x5c", jwk.get("x5c"));
      }
      kept.add(members);
    }
    ObjectNode canonical = JSON.createObjectNode();
    canonical.set("keys", kept);
    String json = canonical.toString();
    if (json.length() > MAX_JSON) {
      throw new IllegalArgumentException(
          "jwks holds more than " + MAX_JSON + " characters of public keys");
    }
    return new ClientJwks(List.copyOf(keys), json, List.copyOf(certificates));
  }

  /**
   * RFC 8705 §2.2: the one certificate of a key's {@code x5c} (RFC 7517 §4.7: base64, not
   * base64url, DER), which must hold the key itself. Neither its issuer nor its validity dates are
   * judged: the registration is what is trusted.
   */
  private static X509Certificate certificate(int index, JsonNode jwk, PublicKey key) {
    JsonNode x5c = jwk.get("x5c");
    if (x5c == null) {
      throw refused(
          index, "has no x5c: a self_signed_tls_client_auth key must carry its certificate");
    }
    if (!x5c.isArray() || x5c.size() != 1 || !x5c.get(0).isTextual()) {
      throw refused(index, "has an x5c that is not an array of exactly one base64 certificate");
    }
    X509Certificate certificate;
    try {
      byte[] der = Base64.getDecoder().decode(x5c.get(0).asText());
      certificate =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(new ByteArrayInputStream(der));
      // The JDK's factory also reads PEM text, and stops after the first certificate: only the
      // exact DER of one certificate is taken, so what is stored is what authenticates.
      if (!Arrays.equals(certificate.getEncoded(), der)) {
        throw new CertificateException("not exactly one DER certificate");
      }
    } catch (IllegalArgumentException | CertificateException | ClassCastException e) {
      throw refused(index, "has an x5c certificate that does not parse as base64 DER X.509");
    }
    if (!Arrays.equals(certificate.getPublicKey().getEncoded(), key.getEncoded())) {
      throw refused(
          index, "has an x5c certificate whose public key is not the key's own (n, e or x, y)");
    }
    return certificate;
  }

  /**
   * The registered certificates of a {@link #parseCertified} set, one per key in the set's order;
   * empty for any other set.
   */
  public List<X509Certificate> certificates() {
    return certificates;
  }

  /**
   * A set as stored or as fetched from a client's {@code jwks_uri}.
   *
   * @throws IOException when it is no JSON or {@link #parse(JsonNode)} refuses it
   */
  public static ClientJwks parse(byte[] json) throws IOException {
    try {
      return parse(JSON.readTree(json));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * A set fetched from a client's {@code jwks_uri}: an entry this service cannot use (another
   * {@code use}, {@code kty} or curve, a weak or malformed key, a private member) is skipped, as
   * RFC 7517 §5 lets a reader do, so that a client whose new set carries one such entry beside its
   * keys has its old keys replaced, not kept. Of the keys left, one without a {@code kid} among
   * several, and those sharing a {@code kid}, are skipped too (which one would be meant is
   * unknown); the first {@link #MAX_KEYS} are kept. At most {@link #MAX_ENTRIES} entries are read.
   *
   * @throws IOException when it is no JSON, no set, holds more than {@link #MAX_ENTRIES} entries,
   *     or no usable key (naming the first entry's reason)
   */
  public static ClientJwks published(byte[] body) throws IOException {
    int[] index = {0};
    JwkSet.Usable<ClientKey> read = JwkSet.read(body, MAX_ENTRIES, jwk -> key(index[0]++, jwk));
    List<ClientKey> usable = read.entries();
    List<JsonNode> usableJson = read.json();
    String firstReason = read.firstReason();
    Map<String, Integer> kidCounts = new HashMap<>();
    // Only kids are counted: a key without one is chosen by the set's size, and must not share a
    // count with a key whose kid is the text "null".
    usable.stream()
        .map(ClientKey::kid)
        .filter(Objects::nonNull)
        .forEach(kid -> kidCounts.merge(kid, 1, Integer::sum));
    List<ClientKey> keys = new ArrayList<>();
    ArrayNode kept = JSON.createArrayNode();
    for (int i = 0; i < usable.size() && keys.size() < MAX_KEYS; i++) {
      ClientKey key = usable.get(i);
      boolean chosen = key.kid() == null ? usable.size() == 1 : kidCounts.get(key.kid()) == 1;
      if (chosen) {
        keys.add(key);
        kept.add(publicMembers(usableJson.get(i)));
      }
    }
    if (keys.isEmpty()) {
      throw new IOException(
          "jwks holds no usable key" + (firstReason == null ? "" : " (" + firstReason + ")"));
    }
    ObjectNode canonical = JSON.createObjectNode();
    canonical.set("keys", kept);
    return new ClientJwks(List.copyOf(keys), canonical.toString());
  }

  /** The keys, in the set's order. */
  public List<ClientKey> keys() {
    return keys;
  }

  /** The set with only the public members of each key, as stored and shown. */
  String json() {
    return json;
  }

  /**
   * The key an assertion's header chooses: the one with its {@code kid}, or the only key when it
   * has none; empty when there is no such key or it does not fit {@code alg}.
   */
  public Optional<ClientKey> find(Optional<String> kid, String alg) {
    Optional<ClientKey> chosen =
        kid.isPresent()
            ? keys.stream().filter(key -> kid.get().equals(key.kid())).findFirst()
            : keys.size() == 1 ? Optional.of(keys.get(0)) : Optional.empty();
    return chosen.filter(key -> key.allows(alg));
  }

  private static ClientKey key(int index, JsonNode jwk) {
    if (!jwk.isObject()) {
      throw refused(index, "is not a JSON object");
    }
    for (String member : PRIVATE_MEMBERS) {
      if (jwk.has(member)) {
        throw refused(
            index, "holds the private member '" + member + "': register public keys only");
      }
    }
    String use = text(jwk, "use", index);
    if (use != null && !use.equals("sig")) {
      throw refused(index, "has use '" + quoted(use) + "': only signature keys (sig) are taken");
    }
    String kid = text(jwk, "kid", index);
    if (kid != null && (kid.isEmpty() || kid.length() > MAX_KID)) {
      throw refused(index, "has a kid that is empty or longer than " + MAX_KID + " characters");
    }
    String kty = String.valueOf(text(jwk, "kty", index));
    PublicKey key =
        switch (kty) {
          case "RSA" -> rsa(index, jwk);
          case "EC" -> ec(index, jwk);
          default ->
              throw refused(index, "has kty '" + quoted(kty) + "': only RSA and EC are taken");
        };
    String alg = text(jwk, "alg", index);
    ClientKey found = new ClientKey(kid, key, alg);
    if (alg != null && (!ALGORITHMS.contains(alg) || !found.allows(alg))) {
      throw refused(
          index, "has alg '" + quoted(alg) + "', which is not RS256, PS256 or ES256 for its kty");
    }
    return found;
  }

  /** RSA by the rules of {@link Jwk#rsa(JsonNode)}, which every reader of a client's key shares. */
  private static PublicKey rsa(int index, JsonNode jwk) {
    try {
      return Jwk.rsa(jwk);
    } catch (IllegalArgumentException e) {
      throw refused(index, e.getMessage());
    }
  }

  /** P-256 by the rules of {@link Jwk#p256(JsonNode)}: the point must lie on the curve. */
  private static PublicKey ec(int index, JsonNode jwk) {
    try {
      return Jwk.p256(jwk);
    } catch (IllegalArgumentException e) {
      throw refused(index, e.getMessage());
    }
  }

  /** A member's text, null when absent; a member that is present but not a string is refused. */
  private static String text(JsonNode jwk, String member, int index) {
    JsonNode value = jwk.get(member);
    if (value == null) {
      return null;
    }
    if (!value.isTextual()) {
      throw refused(index, "has a '" + member + "' that is not a string");
    }
    return value.asText();
  }

  private static ObjectNode publicMembers(JsonNode jwk) {
    ObjectNode kept = JSON.createObjectNode();
    for (String member : List.of("kty", "kid", "use", "alg", "crv", "n", "e", "x", "y")) {
      if (jwk.has(member)) {
        kept.set(member, jwk.get(member));
      }
    }
    return kept;
  }

  /**
   * A value the client chose, as a refusal repeats it: at most 40 characters, and only printable
   * ASCII, since the text may reach a log line (a key set fetched from a jwks_uri).
   */
  public static String quoted(String value) {
    return Jwk.quoted(value);
  }

  private static IllegalArgumentException refused(int index, String reason) {
    return new IllegalArgumentException("jwks: key " + index + " " + reason);
  }
}
