package dev.platform.identity.token;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.jose.CompactJws;
import dev.platform.identity.jose.JwsException;
import dev.platform.identity.jose.StrictJson;
import java.util.Arrays;
import java.util.Optional;

/**
 * A {@code client_assertion} as the token endpoint receives it (RFC 7523 §2.2): a JWS in compact
 * serialization, split and decoded by the JOSE rules every reader of a JWS here shares ({@link
 * CompactJws}, {@link StrictJson}), but not yet trusted. {@link ClientAssertions} decides whether
 * it proves its client. (The client library's own {@code ClientAssertion} makes and signs one.)
 *
 * @param header the protected header
 * @param claims the claims set
 * @param signingInput the ASCII bytes the signature is over: header and payload as sent
 * @param signature the signature's bytes
 */
record ReceivedAssertion(
    CompactJws.Header header, JsonNode claims, byte[] signingInput, byte[] signature) {
  /** RFC 7523 §2.2: the one {@code client_assertion_type} taken. */
  static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

  /** An assertion longer than this is refused before it is decoded. */
  static final int MAX_LENGTH = 8 * 1024;

  /**
   * Splits and decodes {@code text}.
   *
   * @throws OAuthError {@code invalid_client} when it is too long or is no signed JWT
   */
  static ReceivedAssertion parse(String text) {
    if (text.length() > MAX_LENGTH) {
      throw refused("client_assertion is longer than 8 KiB");
    }
    try {
      CompactJws jws = CompactJws.parse(text);
      JsonNode claims = StrictJson.object(jws.payload());
      byte[] signingInput = Arrays.copyOf(jws.signingInput(), jws.signingInputLength());
      return new ReceivedAssertion(jws.header(), claims, signingInput, jws.signature());
    } catch (JwsException e) {
      throw refused(
          switch (e.reason()) {
            case MALFORMED ->
                "client_assertion must be a signed JWT: three base64url parts, the last one"
                    + " the signature";
            case NOT_JSON -> "client_assertion's header and claims must each be a JSON object";
            default -> "client_assertion is not a JWT: its parts are not base64url JSON";
          });
    }
  }

  /** A claim that is a string, else empty. */
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
