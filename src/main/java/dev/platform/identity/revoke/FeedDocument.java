package dev.platform.identity.revoke;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;

/**
 * The body of {@code GET /oauth/revocations} and its ETag, made once per change of the revocations,
 * so that a poll costs a compare and a write. Entries are sorted, so that every node with the same
 * revocations serves the same bytes and the same ETag. Accounts are named by the SHA-256 of their
 * client_id, so that the public feed does not list which accounts exist (docs/security.md).
 *
 * @param body the JSON, shared by every response: never modify it
 * @param etag a strong ETag: the quoted base64url SHA-256 of {@code body}
 */
record FeedDocument(byte[] body, String etag) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  static FeedDocument of(
      String issuer, Collection<RevokedToken> tokens, Collection<AccountCutoff> accounts) {
    ObjectNode root = JSON.createObjectNode();
    root.put("issuer", issuer);
    ArrayNode tokenList = root.putArray("tokens");
    tokens.stream()
        .sorted(Comparator.comparing(RevokedToken::jti))
        .forEach(
            token ->
                tokenList
                    .addObject()
                    .put("jti", token.jti())
                    .put("exp", token.expiresAt().getEpochSecond()));
    ArrayNode accountList = root.putArray("accounts");
    accounts.stream()
        .map(cutoff -> new Hashed(subSha256(cutoff.clientId()), cutoff))
        .sorted(Comparator.comparing(Hashed::sub))
        .forEach(
            hashed ->
                accountList
                    .addObject()
                    .put("sub_sha256", hashed.sub())
                    .put("not_before", hashed.cutoff().notBefore().getEpochSecond())
                    .put("until", hashed.cutoff().until().getEpochSecond()));
    byte[] body = root.toString().getBytes(StandardCharsets.UTF_8);
    return new FeedDocument(body, "\"" + BASE64URL.encodeToString(sha256(body)) + "\"");
  }

  /** The feed's name of an account: base64url (no padding) SHA-256 of its UTF-8 client_id. */
  static String subSha256(String clientId) {
    return BASE64URL.encodeToString(sha256(clientId.getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private record Hashed(String sub, AccountCutoff cutoff) {}
}
