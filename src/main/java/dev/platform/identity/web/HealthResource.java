package dev.platform.identity.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.platform.identity.db.DatabaseHealth;
import dev.platform.identity.key.KeyRing;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/** Liveness and readiness for load balancers and orchestrators. */
@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
public final class HealthResource {
  private final DatabaseHealth database;
  private final KeyRing keyRing;

  HealthResource(DatabaseHealth database, KeyRing keyRing) {
    this.database = database;
    this.keyRing = keyRing;
  }

  /**
   * What a health check says: always {@code status}; when asked for readiness, the database's
   * state, whether the current key signs and why not, and how many signing keys are still sealed
   * under a previous key-encryption key (a rotation of that key is complete when this is 0 on every
   * node).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Health(
      String status,
      String database,
      String signingKey,
      String problem,
      Integer signingKeysUnderPreviousKeyEncryptionKeys) {}

  /** The process answers HTTP; never touches the database. */
  @GET
  @Path("live")
  public Health live() {
    return new Health("UP", null, null, null, null);
  }

  /**
   * The database answers and holds the newest schema, and the current key signs: 200, else 503.
   * Answered from memory: the database's state is its background probe's and its recent statements'
   * ({@link DatabaseHealth}), so a stalled database turns this 503 at once. The key is tried by a
   * real signature at most once a second (a key in a PKCS#11 token fails when the token is gone).
   * The count of keys under a previous key-encryption key is the key ring's, as of its last
   * refresh: no query of its own.
   */
  @GET
  @Path("ready")
  public Response ready() {
    boolean databaseReady = database.ready();
    Optional<String> signingProblem = keyRing.signingProblem();
    boolean ready = databaseReady && signingProblem.isEmpty();
    return Response.status(ready ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
        .header("Cache-Control", "no-store")
        .entity(
            new Health(
                state(ready),
                state(databaseReady),
                state(signingProblem.isEmpty()),
                signingProblem.orElse(null),
                keyRing.sealedUnderPreviousKeys()))
        .build();
  }

  private static String state(boolean up) {
    return up ? "UP" : "DOWN";
  }
}
