package dev.platform.identity.web;

import dev.platform.identity.db.Database;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** Liveness and readiness for load balancers and orchestrators. */
@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
public final class HealthResource {
  private final Database database;

  HealthResource(Database database) {
    this.database = database;
  }

  /** The process answers HTTP. */
  @GET
  @Path("live")
  public Map<String, String> live() {
    return Map.of("status", "UP");
  }

  /** The database answers and holds the newest schema: 200, else 503. */
  @GET
  @Path("ready")
  public Response ready() {
    boolean ready = database.isReady();
    String state = ready ? "UP" : "DOWN";
    return Response.status(ready ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
        .header("Cache-Control", "no-store")
        .entity(Map.of("status", state, "database", state))
        .build();
  }
}
