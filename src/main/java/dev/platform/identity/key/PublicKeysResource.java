package dev.platform.identity.key;

import dev.platform.identity.key.KeyRing.Cached;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * SPEC 4.3: one public key that verifies tokens (the list of SPEC 4.2 is {@link
 * PublicKeysServlet}). No authentication; unversioned on purpose. Served from the key ring: no
 * database read per request.
 */
@Path("/api/public-keys")
@Produces(MediaType.APPLICATION_JSON)
public final class PublicKeysResource {
  private final KeyRing ring;

  public PublicKeysResource(KeyRing ring) {
    this.ring = ring;
  }

  /** SPEC 4.3: one published key, or 404 when it is unknown, expired or revoked. */
  @GET
  @Path("{keyId}")
  public Response find(@PathParam("keyId") String keyId) {
    return cached(ring.lookup(keyId).orElseThrow(() -> new UnknownKeyException(keyId)));
  }

  private static Response cached(Cached<?> cached) {
    return Response.ok(cached.body()).header("Cache-Control", cacheControl(cached)).build();
  }

  /** SPEC 8: at most an hour, and never past the next change, so no cache misses a new key. */
  static String cacheControl(Cached<?> cached) {
    return "public, max-age=" + cached.maxAge().toSeconds();
  }
}
