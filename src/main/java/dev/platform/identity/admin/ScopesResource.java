package dev.platform.identity.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.platform.identity.scope.ChannelGrant;
import dev.platform.identity.scope.InvalidScopeException;
import dev.platform.identity.scope.Scope;
import dev.platform.identity.scope.ScopeCatalog;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** ADMIN.md "Scope catalog": {@code /admin/v1/scopes}. */
@Path("/admin/v1/scopes")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class ScopesResource {
  private final ScopeCatalog catalog;

  public ScopesResource(ScopeCatalog catalog) {
    this.catalog = catalog;
  }

  /** One scope of the catalog. */
  public record ScopeJson(String scope, String description, Channels channels) {
    static ScopeJson from(Scope scope) {
      ChannelGrant channels = scope.channels();
      return new ScopeJson(
          scope.name(),
          scope.description(),
          new Channels(channels.subscribe(), channels.publish(), channels.replay()));
    }
  }

  /** Channel patterns per action. */
  public record Channels(
      @JsonProperty("subscribe") List<String> subscribe,
      @JsonProperty("publish") List<String> publish,
      @JsonProperty("replay") List<String> replay) {}

  /** The body of a PUT. */
  public record ScopeDefinition(
      @JsonProperty("description") String description,
      @JsonProperty("channels") Channels channels) {}

  @GET
  @AnyScopeOf({AdminAuth.ADMIN, AdminAuth.ACCOUNTS, AdminAuth.KEYS})
  public Items<ScopeJson> list(@Context ContainerRequestContext request) {
    AdminAuth.caller(request);
    return new Items<>(catalog.list().stream().map(ScopeJson::from).toList());
  }

  @PUT
  @Path("{scope}")
  @AnyScopeOf(AdminAuth.ADMIN)
  public Response put(
      @PathParam("scope") String scope,
      ScopeDefinition body,
      @Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    if (body == null) {
      throw ApiError.badRequest("a JSON body is required");
    }
    Optional<ChannelGrant> channels =
        Optional.ofNullable(body.channels())
            .map(
                given ->
                    new ChannelGrant(
                        patterns("subscribe", given.subscribe()),
                        patterns("publish", given.publish()),
                        patterns("replay", given.replay())));
    boolean created;
    try {
      created =
          catalog.put(
              scope,
              body.description(),
              channels,
              isNew ->
                  caller
                      .events()
                      .event(isNew ? "scope.create" : "scope.replace", scope, null, Map.of()));
    } catch (InvalidScopeException e) {
      throw ApiError.badRequest(e.getMessage());
    }
    caller.audit(created ? "scope.create" : "scope.replace", scope);
    ScopeJson stored = ScopeJson.from(catalog.find(scope).orElseThrow());
    return Response.status(created ? Response.Status.CREATED : Response.Status.OK)
        .entity(stored)
        .build();
  }

  /** Absent is none; a null pattern is a 400 naming the field, not a failure further down. */
  private static List<String> patterns(String action, List<String> patterns) {
    if (patterns == null) {
      return List.of();
    }
    if (patterns.contains(null)) {
      throw ApiError.badRequest("channels." + action + " must hold channel patterns, not null");
    }
    return patterns;
  }
}
