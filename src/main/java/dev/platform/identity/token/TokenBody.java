package dev.platform.identity.token;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The body of a token request as the endpoint reads it: at most {@link #MAX} bytes, in one buffer
 * of the declared length when there is one, as UTF-8 (STYLE 3: never through {@code getParameter}).
 * Public so the rate-limit filter reads the very bytes the endpoint will parse, and hands them on.
 */
public final class TokenBody {
  /** A token request is a few hundred bytes; anything near this is not one. */
  public static final int MAX = 16 * 1024;

  private final byte[] bytes;

  TokenBody(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * Reads the whole body of {@code request}: from memory, where the front door read it without a
   * thread.
   *
   * @throws OAuthError {@code invalid_request} when the body is larger than {@link #MAX} or cannot
   *     be read
   */
  public static TokenBody read(HttpServletRequest request) {
    long declared = request.getContentLengthLong();
    try (InputStream body = request.getInputStream()) {
      byte[] bytes =
          declared > MAX ? null : body.readNBytes(declared < 0 ? MAX + 1 : (int) declared);
      if (bytes == null || bytes.length > MAX) {
        throw OAuthError.invalidRequest("The request body is larger than " + MAX + " bytes");
      }
      return new TokenBody(bytes);
    } catch (IOException e) {
      throw OAuthError.invalidRequest("The request body could not be read");
    }
  }

  /** The body as text: form bodies are UTF-8 whatever the content type says (WHATWG URL §5.1). */
  public String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The bytes, for a request handed on after they were read; not to be changed. */
  public byte[] bytes() {
    return bytes;
  }
}
