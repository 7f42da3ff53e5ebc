package dev.platform.identity.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * A {@code client_assertion} as sent (RFC 7523 §2.2): a JWS in compact serialization, split and
 * decoded but not yet trusted. {@link ClientAssertions} decides whether it proves its client.
 *
 * @param header the JOSE header
 * @param claims the claims set
 * @param signingInput the ASCII bytes the signature is over: header and payload as sent
 * @param signature the signature's bytes
 */
record ClientAssertion(JsonNode header, JsonNode claims, byte[] signingInput, byte[] signature) {
  /** RFC 7523 §2.2: the one {@code client_assertion_type} taken. */
  static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

  /** Issue 22: an assertion longer than this is refused before it is decoded. */
  static final int MAX_LENGTH = 8 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Splits and decodes {@code text}.
   *
   * @throws OAuthError {@code invalid_client} when it is too long or is no signed JWT
   */
  static ClientAssertion parse(String text) {
    if (text.length() > MAX_LENGTH) {
      throw refused("client_assertion is longer than 8 KiB");
    }
    String[] parts = text.split("\\.", -1);
    if (parts.length != 3 || parts[2].isEmpty()) {
      throw refused(
          "client_assertion must be a signed JWT: three base64url parts, the last one"
              + " the signature");
    }
    try {
      Base64.Decoder base64url = Base64.getUrlDecoder();
      JsonNode header = JSON.readTree(base64url.decode(parts[0]));
      JsonNode claims = JSON.readTree(base64url.decode(parts[1]));
      if (header == null || !header.isObject() || claims == null || !claims.isObject()) {
        throw refused("client_assertion's header and claims must each be a JSON object");
      }
      byte[] signingInput = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII);
      return new ClientAssertion(header, claims, signingInput, base64url.decode(parts[2]));
    } catch (IOException | IllegalArgumentException e) {
      throw refused("client_assertion is not a JWT: its parts are not base64url JSON");
    }
  }

  /** A claim or header member that is a string, else empty. */
  static Optional<String> text(JsonNode node, String member) {
    JsonNode value = node.get(member);
    return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  /** The client it claims to be, before anything is checked: its {@code sub}, else its iss. */
  Optional<String> claimedClient() {
    return text(claims, "sub").or(() -> text(claims, "iss"));
  }

  static OAuthError refused(String description) {
    return OAuthError.invalidClient(description, false);
  }
}
