package dev.platform.identity.console;

import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.SigningKeyList;
import dev.platform.identity.admin.SigningKeysResource;
import dev.platform.identity.key.KeyStatus;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The console's signing keys: the key ring as a table and a timeline, a rotation and a revocation,
 * each through the method of {@link SigningKeysResource} that the API's callers reach.
 */
@Path(ConsoleAuth.ROOT + "/keys")
@Produces(MediaType.TEXT_HTML)
public final class ConsoleKeysResource {
  /** The width of the timeline's drawing, in SVG pixels; the stylesheet scales it to the page. */
  static final int TIMELINE_WIDTH = 1000;

  /** What the page says after a change redirected to it: fixed words, never the query's. */
  static final Map<String, String> DONE =
      Map.of(
          "rotated", "A new key is published. It signs as the timeline shows.",
          "revoked", "The key is revoked: tokens it signed are refused.");

  private final SigningKeysResource keys;
  private final Pages pages;
  private final Clock clock;

  ConsoleKeysResource(SigningKeysResource keys, Pages pages, Clock clock) {
    this.keys = keys;
    this.pages = pages;
    this.clock = clock;
  }

  @GET
  @Performs(resource = SigningKeysResource.class, method = "list")
  public Response list(@QueryParam("done") String done, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          SigningKeyList ring = keys.list(request);
          Map<String, Object> parameters = page(request, "Signing keys");
          parameters.put("keys", ring.items());
          parameters.put("sealedUnderPrevious", ring.sealedUnderPreviousKeyEncryptionKeys());
          parameters.put("timeline", KeyTimeline.of(ring.items(), clock.instant(), TIMELINE_WIDTH));
          parameters.put("done", Pages.notice(DONE, done));
          parameters.put("mayChange", Pages.allows(request, SigningKeysResource.class, "rotate"));
          return pages.render("keys.jte", parameters);
        });
  }

  /** The confirmation of a rotation, with the choice to sign with the new key at once. */
  @GET
  @Path("confirm/rotate")
  @Performs(resource = SigningKeysResource.class, method = "rotate")
  public Response confirmRotate(@Context ContainerRequestContext request) {
    Map<String, Object> parameters = page(request, "Rotate the signing key");
    parameters.put("key", null);
    return pages.render("confirmKey.jte", parameters);
  }

  @POST
  @Path("rotate")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = SigningKeysResource.class, method = "rotate")
  public Response rotate(
      MultivaluedMap<String, String> form, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          String immediate = FormFields.one(form, "immediate");
          keys.rotate(immediate.equals("true") ? "true" : null, request);
          return toList(request, "rotated");
        });
  }

  /** The confirmation of a revocation, naming the key. */
  @GET
  @Path("{kid}/confirm/revoke")
  @Performs(resource = SigningKeysResource.class, method = "revoke")
  public Response confirmRevoke(
      @PathParam("kid") String kid, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          KeyStatus key =
              keys.list(request).items().stream()
                  .filter(candidate -> candidate.kid().equals(kid))
                  .findFirst()
                  .orElseThrow(() -> ApiError.of(404, "no such signing key"));
          Map<String, Object> parameters = page(request, "Revoke a signing key");
          parameters.put("key", key);
          return pages.render("confirmKey.jte", parameters);
        });
  }

  @POST
  @Path("{kid}/revoke")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = SigningKeysResource.class, method = "revoke")
  public Response revoke(@PathParam("kid") String kid, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          keys.revoke(kid, request);
          return toList(request, "revoked");
        });
  }

  private static Map<String, Object> page(ContainerRequestContext request, String title) {
    Map<String, Object> parameters = new HashMap<>();
    parameters.put("frame", Pages.frame(request, title, "/keys"));
    return parameters;
  }

  private static Response toList(ContainerRequestContext request, String done) {
    return Response.seeOther(
            URI.create(ConsoleAuth.contextPath(request) + ConsoleAuth.ROOT + "/keys?done=" + done))
        .build();
  }
}
