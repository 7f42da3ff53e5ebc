package dev.platform.identity.web;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /openapi.json}, the OpenAPI 3.1 description of every endpoint of the API, a reviewed
 * file beside this class ({@code openapi.json}), read once. {@code OpenApiDocumentTest} holds it to
 * the resources Jersey serves, {@code OpenApiIT} to the service's answers. Revalidated on each use
 * ({@code no-cache}): it changes with a deployment.
 */
@Path("/openapi.json")
public final class OpenApiResource {
  private final byte[] document;

  public OpenApiResource() {
    try (InputStream in = OpenApiResource.class.getResourceAsStream("openapi.json")) {
      if (in == null) {
        throw new IllegalStateException("openapi.json is missing from the WAR");
      }
      document = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response document() {
    CacheControl revalidate = new CacheControl();
    revalidate.setNoCache(true);
    return Response.ok(document).cacheControl(revalidate).build();
  }
}
