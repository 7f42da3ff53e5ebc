package dev.platform.identity.verify;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.platform.identity.jose.JwsException;
import dev.platform.identity.jose.StrictJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One revocation feed document ({@code GET {issuer}/oauth/revocations}), read strictly and held as
 * two lookups: the revoked {@code jti}s, and each revoked account's {@code not_before} by the
 * base64url SHA-256 of its client id. Immutable once read; {@link RevocationFeed} publishes it.
 *
 * <p>The shape is checked, not guessed: one JSON object in UTF-8 with no member named twice, whose
 * {@code issuer} is the expected one, {@code tokens} an array of {@code {"jti": string, "exp":
 * integer}} and {@code accounts} an array of {@code {"sub_sha256": 43 base64url characters,
 * "not_before": integer, "until": integer}}. Any other shape fails the whole document, so a broken
 * or foreign answer never replaces a good one. Members this reader does not know are skipped, as
 * JWT readers do, so the issuer may add some without breaking its verifiers.
 */
final class RevocationList {
  static final RevocationList NONE = new RevocationList(Set.of(), Map.of());

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final Set<String> tokenIds;
  private final Map<String, Long> accountsNotBefore;
  private final boolean empty;

  private RevocationList(Set<String> tokenIds, Map<String, Long> accountsNotBefore) {
    this.tokenIds = tokenIds;
    this.accountsNotBefore = accountsNotBefore;
    this.empty = tokenIds.isEmpty() && accountsNotBefore.isEmpty();
  }

  /**
   * Whether a token is revoked: its {@code jti} is listed, or its account is and the token was
   * issued before the account's {@code not_before}. A token without {@code iat} under a listed
   * account cannot show it is newer, so it is revoked.
   *
   * @param tokenId the token's {@code jti}, or null
   * @param subjectHash {@link #subjectHash} of the token's client id
   * @param issuedAt the token's {@code iat} in seconds, {@link Long#MIN_VALUE} when absent
   */
  boolean revokes(String tokenId, String subjectHash, long issuedAt) {
    if (empty) {
      return false;
    }
    if (tokenId != null && tokenIds.contains(tokenId)) {
      return true;
    }
    Long notBefore = accountsNotBefore.get(subjectHash);
    return notBefore != null && issuedAt < notBefore;
  }

  /** How many entries the document held: revoked tokens plus revoked accounts. */
  int size() {
    return tokenIds.size() + accountsNotBefore.size();
  }

  /** The feed's key of an account: base64url, unpadded, of SHA-256 of the UTF-8 client id. */
  static String subjectHash(String clientId) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      return BASE64URL.encodeToString(sha256.digest(clientId.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /**
   * Reads a feed document of {@code issuer}.
   *
   * @throws IOException naming what is wrong, when it is not one (class comment)
   */
  static RevocationList read(byte[] body, String issuer) throws IOException {
    try (JsonParser json = StrictJson.parser(body)) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("the revocation feed is not a JSON object");
      }
      String feedIssuer = null;
      Set<String> tokens = null;
      Map<String, Long> accounts = null;
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String name = json.currentName();
        JsonToken value = json.nextToken();
        switch (name) {
          case "issuer" -> feedIssuer = text(json, value, name);
          case "tokens" -> tokens = tokens(json, value);
          case "accounts" -> accounts = accounts(json, value);
          default -> json.skipChildren();
        }
      }
      if (!StrictJson.ended(json)) {
        throw new IOException("the revocation feed is not one JSON object");
      }
      if (!issuer.equals(feedIssuer)) {
        throw new IOException("the revocation feed is not of the issuer " + issuer);
      }
      if (tokens == null || accounts == null) {
        throw new IOException("the revocation feed lacks its tokens or its accounts");
      }
      return new RevocationList(tokens, accounts);
    } catch (JwsException e) {
      throw new IOException("the revocation feed is not a JSON object in UTF-8", e);
    }
  }

  private static Set<String> tokens(JsonParser json, JsonToken value) throws IOException {
    Set<String> tokens = new HashSet<>();
    requireArray(value, "tokens");
    while (json.nextToken() == JsonToken.START_OBJECT) {
      String jti = null;
      Long exp = null;
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String name = json.currentName();
        JsonToken member = json.nextToken();
        switch (name) {
          case "jti" -> jti = text(json, member, name);
          case "exp" -> exp = seconds(json, member, name);
          default -> json.skipChildren();
        }
      }
      if (jti == null || jti.isEmpty() || exp == null) {
        throw new IOException("a revoked token lacks its jti or its exp");
      }
      tokens.add(jti);
    }
    requireArrayEnd(json, "tokens");
    return tokens;
  }

  private static Map<String, Long> accounts(JsonParser json, JsonToken value) throws IOException {
    Map<String, Long> accounts = new HashMap<>();
    requireArray(value, "accounts");
    while (json.nextToken() == JsonToken.START_OBJECT) {
      String hash = null;
      Long notBefore = null;
      Long until = null;
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String name = json.currentName();
        JsonToken member = json.nextToken();
        switch (name) {
          case "sub_sha256" -> hash = text(json, member, name);
          case "not_before" -> notBefore = seconds(json, member, name);
          case "until" -> until = seconds(json, member, name);
          default -> json.skipChildren();
        }
      }
      if (hash == null || notBefore == null || until == null) {
        throw new IOException("a revoked account lacks its sub_sha256, not_before or until");
      }
      accounts.merge(sha256(hash), notBefore, Math::max); // listed twice: the later not_before
    }
    requireArrayEnd(json, "accounts");
    return accounts;
  }

  /** A SHA-256 in canonical unpadded base64url: 43 characters that decode to 32 bytes. */
  private static String sha256(String hash) throws IOException {
    byte[] bytes;
    try {
      bytes = hash.length() == 43 ? Base64.getUrlDecoder().decode(hash) : new byte[0];
    } catch (IllegalArgumentException e) {
      bytes = new byte[0];
    }
    if (bytes.length != 32 || !BASE64URL.encodeToString(bytes).equals(hash)) {
      throw new IOException("a sub_sha256 is not a SHA-256 in unpadded base64url");
    }
    return hash;
  }

  private static String text(JsonParser json, JsonToken value, String name) throws IOException {
    if (value != JsonToken.VALUE_STRING) {
      throw new IOException("the revocation feed's " + name + " is not a string");
    }
    return json.getText();
  }

  /** Whole seconds since 1970 as a JSON integer, as the feed writes them. */
  private static long seconds(JsonParser json, JsonToken value, String name) throws IOException {
    if (value != JsonToken.VALUE_NUMBER_INT
        || json.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      throw new IOException("the revocation feed's " + name + " is not an integer of seconds");
    }
    long seconds = json.getLongValue();
    if (seconds < 0) {
      throw new IOException("the revocation feed's " + name + " is negative");
    }
    return seconds;
  }

  private static void requireArray(JsonToken value, String name) throws IOException {
    if (value != JsonToken.START_ARRAY) {
      throw new IOException("the revocation feed's " + name + " is not an array");
    }
  }

  private static void requireArrayEnd(JsonParser json, String name) throws IOException {
    if (json.currentToken() != JsonToken.END_ARRAY) {
      throw new IOException("the revocation feed's " + name + " holds something else than objects");
    }
  }
}
