package dev.platform.identity.key;

import dev.platform.identity.http.PublishedDocumentServlet;
import dev.platform.identity.key.KeyRing.Cached;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * SPEC 4.2 {@code GET /api/public-keys}: every published key, the body serialized once per key-ring
 * change. Every verifying service fetches it, so it is a plain servlet that copies those bytes out,
 * without Jersey's routing and message-body lookup (docs/performance.md); the single-key lookup
 * {@code /api/public-keys/{keyId}} stays with {@link PublicKeysResource}.
 */
public final class PublicKeysServlet extends PublishedDocumentServlet {
  private final transient KeyRing ring;

  public PublicKeysServlet(KeyRing ring) {
    super("The public key list");
    this.ring = ring;
  }

  @Override
  protected void answer(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Cached<byte[]> published = ring.published();
    response.setHeader("Cache-Control", PublicKeysResource.cacheControl(published));
    write(response, published.body());
  }
}
