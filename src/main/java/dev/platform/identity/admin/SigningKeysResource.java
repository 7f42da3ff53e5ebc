package dev.platform.identity.admin;

import dev.platform.identity.audit.CallerText;
import dev.platform.identity.key.AlreadyRevokedException;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.key.KeyRotation;
import dev.platform.identity.key.KeyStatus;
import dev.platform.identity.key.SigningKey;
import dev.platform.identity.key.TooManyKeysException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;

/**
 * ADMIN.md "Signing keys": {@code /admin/v1/signing-keys}, through the key ring and rotation. Every
 * method asks for its caller first, so none can change a key if {@link AdminAuth} did not run.
 */
@Path("/admin/v1/signing-keys")
@AnyScopeOf({AdminAuth.ADMIN, AdminAuth.KEYS})
@Produces(MediaType.APPLICATION_JSON)
public final class SigningKeysResource {
  private final KeyRing ring;
  private final KeyRotation rotation;
  private final KeyOperationBudget rotations;
  private final KeyOperationBudget revocations;

  public SigningKeysResource(KeyRing ring, KeyRotation rotation, Clock clock) {
    this.ring = ring;
    this.rotation = rotation;
    this.rotations = KeyOperationBudget.rotations(clock);
    this.revocations = KeyOperationBudget.revocations(clock);
  }

  @GET
  public SigningKeyList list(@Context ContainerRequestContext request) {
    AdminAuth.caller(request);
    return new SigningKeyList(ring.statuses(), ring.sealedUnderPreviousKeys());
  }

  /**
   * Publishes a new key now; it signs after the pre-publication time, or at once if immediate. Only
   * a rotation that succeeds spends the caller's budget; one refused at the key cap (409) does not.
   */
  @POST
  @Path("rotate")
  public Response rotate(
      @QueryParam("immediate") String immediate, @Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    boolean now = flag(immediate);
    SigningKey key = rotations.charge(caller.token().clientId(), () -> rotate(now, caller));
    caller.audit(now ? "key.rotate.immediate" : "key.rotate", key.kid());
    return Response.status(Response.Status.CREATED).entity(status(key.kid())).build();
  }

  /**
   * Compromise: the key leaves the list and the lookup at once. Revocations have a budget of their
   * own, so rotations (or refusals) never keep one from being revoked.
   */
  @POST
  @Path("{kid}/revoke")
  public KeyStatus revoke(@PathParam("kid") String kid, @Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    if (status(kid).isRevoked()) {
      throw ApiError.conflict("signing key " + kid + " is already revoked");
    }
    revocations.charge(caller.token().clientId(), () -> revoke(kid, caller));
    caller.audit("key.revoke", kid);
    return status(kid);
  }

  private SigningKey rotate(boolean immediate, AdminAuth.Caller caller) {
    try {
      return rotation.rotate(immediate, caller.events());
    } catch (TooManyKeysException e) {
      throw ApiError.conflict(e.getMessage());
    }
  }

  private SigningKey revoke(String kid, AdminAuth.Caller caller) {
    try {
      return rotation
          .revoke(kid, caller.events())
          .orElseThrow(() -> ApiError.notFound("no signing key " + CallerText.shortened(kid)));
    } catch (AlreadyRevokedException e) {
      throw ApiError.conflict(e.getMessage());
    }
  }

  private KeyStatus status(String kid) {
    return ring.statuses().stream()
        .filter(key -> key.kid().equals(kid))
        .findFirst()
        .orElseThrow(() -> ApiError.notFound("no signing key " + CallerText.shortened(kid)));
  }

  private static boolean flag(String value) {
    if (value == null || value.equals("false")) {
      return false;
    }
    if (value.equals("true")) {
      return true;
    }
    throw ApiError.badRequest("immediate must be true or false");
  }
}
