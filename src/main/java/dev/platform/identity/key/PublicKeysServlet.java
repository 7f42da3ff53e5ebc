package dev.platform.identity.key;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.http.ErrorBody;
import dev.platform.identity.key.KeyRing.Cached;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * SPEC 4.2 {@code GET /api/public-keys}: every published key, the body serialized once per key-ring
 * change. Every verifying service fetches it, so it is a plain servlet that copies those bytes out,
 * without Jersey's routing and message-body lookup (docs/performance.md); the single-key lookup
 * {@code /api/public-keys/{keyId}} stays with {@link PublicKeysResource}.
 */
public final class PublicKeysServlet extends HttpServlet {
  private static final byte[] ONLY_GET = onlyGet();

  private final transient KeyRing ring;

  public PublicKeysServlet(KeyRing ring) {
    this.ring = ring;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String method = request.getMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      response.setHeader("Allow", "GET, HEAD");
      write(response, ONLY_GET);
      return;
    }
    Cached<byte[]> published = ring.published();
    response.setHeader("Cache-Control", PublicKeysResource.cacheControl(published));
    write(response, published.body()); // Tomcat sends no body to HEAD
  }

  private static byte[] onlyGet() {
    try {
      return new ObjectMapper()
          .writeValueAsBytes(new ErrorBody("The public key list accepts only GET"));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void write(HttpServletResponse response, byte[] body) throws IOException {
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
