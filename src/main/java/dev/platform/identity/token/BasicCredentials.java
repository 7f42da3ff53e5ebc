package dev.platform.identity.token;

import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code client_secret_basic} (RFC 6749 §2.3.1 and Appendix B): base64 of the form-encoded
 * client_id and client_secret joined by the first {@code :}. The error messages never quote the
 * header.
 *
 * @param clientId the decoded client_id, empty if none was given
 * @param clientSecret the decoded client_secret, empty if none was given
 */
record BasicCredentials(String clientId, String clientSecret) {
  private static final String SCHEME = "basic";

  /**
   * The credentials of an {@code Authorization} header, or empty when there is none.
   *
   * @throws OAuthError {@code invalid_request} when the Basic credentials are malformed; {@code
   *     invalid_client} (challenging Basic) for another scheme, an unsupported authentication
   *     method (RFC 6749 §5.2)
   */
  static Optional<BasicCredentials> from(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      return Optional.empty();
    }
    String header = authorization.strip();
    int space = header.indexOf(' ');
    String scheme = space < 0 ? header : header.substring(0, space);
    // Locale.ROOT and equals, not equalsIgnoreCase: "baſic" must not pass as "Basic".
    if (!scheme.toLowerCase(Locale.ROOT).equals(SCHEME)) {
      throw OAuthError.invalidClient(
          "unsupported client authentication: use the Basic scheme, or client_id and"
              + " client_secret in the body",
          true);
    }
    String userPass = decodeBase64(space < 0 ? "" : header.substring(space + 1).strip());
    int colon = userPass.indexOf(':');
    if (colon < 0) {
      throw malformed("have no ':' between client_id and client_secret");
    }
    try {
      return Optional.of(
          new BasicCredentials(
              Form.decode(userPass.substring(0, colon)),
              Form.decode(userPass.substring(colon + 1))));
    } catch (IllegalArgumentException e) {
      throw malformed("are not form-encoded (RFC 6749 Appendix B): " + e.getMessage());
    }
  }

  private static String decodeBase64(String token68) {
    if (token68.isEmpty()) {
      throw malformed("are empty");
    }
    try {
      return Form.decodeUtf8(Base64.getDecoder().decode(token68));
    } catch (IllegalArgumentException e) {
      throw malformed("are not base64 of UTF-8 text");
    }
  }

  private static OAuthError malformed(String problem) {
    return OAuthError.invalidRequest("the HTTP Basic credentials " + problem);
  }

  @Override
  public String toString() {
    return "BasicCredentials[clientId=" + clientId + ", clientSecret=(hidden)]";
  }
}
