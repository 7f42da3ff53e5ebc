package dev.platform.identity.console;

import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.ScopesResource;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The console's scope catalog: the list, and a scope's description and channel patterns edited
 * through {@link ScopesResource#put}, as the API's callers replace them.
 */
@Path(ConsoleAuth.ROOT + "/scopes")
@Produces(MediaType.TEXT_HTML)
public final class ConsoleScopesResource {
  /** The form's fields: the description, then the channel patterns per action, one a line. */
  static final List<String> FIELDS = List.of("description", "subscribe", "publish", "replay");

  static final Map<String, String> DONE = Map.of("saved", "The scope is saved.");

  private final ScopesResource scopes;
  private final Pages pages;

  ConsoleScopesResource(ScopesResource scopes, Pages pages) {
    this.scopes = scopes;
    this.pages = pages;
  }

  @GET
  @Performs(resource = ScopesResource.class, method = "list")
  public Response list(@QueryParam("done") String done, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          Map<String, Object> parameters = page(request, "Scopes");
          parameters.put("scopes", scopes.list(request).items());
          parameters.put("done", Pages.notice(DONE, done));
          parameters.put("mayEdit", Pages.allows(request, ScopesResource.class, "put"));
          return pages.render("scopes.jte", parameters);
        });
  }

  /** The form of a scope, filled with what the catalog holds. */
  @GET
  @Path("{scope}")
  @Performs(resource = ScopesResource.class, method = "put")
  public Response edit(@PathParam("scope") String scope, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          ScopesResource.ScopeJson found =
              scopes.list(request).items().stream()
                  .filter(candidate -> candidate.scope().equals(scope))
                  .findFirst()
                  .orElseThrow(() -> ApiError.of(404, "no such scope"));
          ScopesResource.Channels channels = found.channels();
          Map<String, String> given = new HashMap<>();
          given.put("description", found.description());
          given.put("subscribe", String.join("\n", channels.subscribe()));
          given.put("publish", String.join("\n", channels.publish()));
          given.put("replay", String.join("\n", channels.replay()));
          return form(request, 200, scope, null, given);
        });
  }

  @POST
  @Path("{scope}")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = ScopesResource.class, method = "put")
  public Response save(
      @PathParam("scope") String scope,
      MultivaluedMap<String, String> form,
      @Context ContainerRequestContext request) {
    Map<String, String> given = new HashMap<>();
    try {
      for (String field : FIELDS) {
        given.put(field, FormFields.one(form, field));
      }
      ScopesResource.ScopeDefinition definition =
          new ScopesResource.ScopeDefinition(
              given.get("description"),
              new ScopesResource.Channels(
                  lines(given.get("subscribe")),
                  lines(given.get("publish")),
                  lines(given.get("replay"))));
      scopes.put(scope, definition, request);
      return Response.seeOther(
              URI.create(
                  ConsoleAuth.contextPath(request) + ConsoleAuth.ROOT + "/scopes?done=saved"))
          .build();
    } catch (ApiError e) {
      return form(request, e.status(), scope, e.getMessage(), given);
    } catch (FormFields.InvalidFormException e) {
      return form(request, 400, scope, e.getMessage(), given);
    }
  }

  private Response form(
      ContainerRequestContext request,
      int status,
      String scope,
      String message,
      Map<String, String> given) {
    Map<String, Object> parameters = page(request, "Scope " + scope);
    parameters.put("scope", scope);
    parameters.put("message", message);
    parameters.put("given", given);
    return pages.render(status, "scope.jte", parameters);
  }

  private static Map<String, Object> page(ContainerRequestContext request, String title) {
    Map<String, Object> parameters = new HashMap<>();
    parameters.put("frame", Pages.frame(request, title, "/scopes"));
    return parameters;
  }

  /** The patterns of a textarea, one a line; blank lines are none. */
  static List<String> lines(String text) {
    return Arrays.stream(text.split("\\R"))
        .map(String::strip)
        .filter(line -> !line.isEmpty())
        .toList();
  }
}
