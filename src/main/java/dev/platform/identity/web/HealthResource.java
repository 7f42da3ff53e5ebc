package dev.platform.identity.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.platform.identity.db.Database;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Liveness and readiness for load balancers and orchestrators. */
@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
public final class HealthResource {
  private final Database database;

  HealthResource(Database database) {
    this.database = database;
  }

  /** What a health check says: always {@code status}, and the database's state when asked. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Health(String status, String database) {}

  /** The process answers HTTP. */
  @GET
  @Path("live")
  public Health live() {
    return new Health("UP", null);
  }

  /** The database answers and holds the newest schema: 200, else 503. */
  @GET
  @Path("ready")
  public Response ready() {
    boolean ready = database.isReady();
    String state = ready ? "UP" : "DOWN";
    return Response.status(ready ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
        .header("Cache-Control", "no-store")
        .entity(new Health(state, state))
        .build();
  }
}
