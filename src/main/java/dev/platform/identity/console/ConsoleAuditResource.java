package dev.platform.identity.console;

import dev.platform.identity.admin.AuditEventJson;
import dev.platform.identity.admin.AuditEventsResource;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The console's audit trail: {@link AuditEventsResource#list} reads this page's own query, so the
 * filters are the API's parameters. The API refuses an empty one, which a form without script sends
 * for every field left blank: such a request is first redirected to the same query without its
 * empty fields.
 */
@Path(ConsoleAuth.ROOT + "/audit")
@Produces(MediaType.TEXT_HTML)
public final class ConsoleAuditResource {
  /** The filters of the form, each an API parameter. */
  static final List<String> FILTERS = List.of("event", "actor", "target");

  private final AuditEventsResource audit;
  private final Pages pages;

  ConsoleAuditResource(AuditEventsResource audit, Pages pages) {
    this.audit = audit;
    this.pages = pages;
  }

  @GET
  @Performs(resource = AuditEventsResource.class, method = "list")
  public Response list(@Context ContainerRequestContext request) {
    MultivaluedMap<String, String> query = request.getUriInfo().getQueryParameters();
    if (query.values().stream().flatMap(List::stream).anyMatch(String::isEmpty)) {
      return Response.seeOther(URI.create(here(request) + query(query, Map.of()))).build();
    }
    return pages.answer(
        request,
        () -> {
          AuditEventJson.Page page = audit.list(request);
          Map<String, Object> parameters = new HashMap<>();
          parameters.put("frame", Pages.frame(request, "Audit events", "/audit"));
          parameters.put("events", page.items());
          Map<String, String> filters = new HashMap<>();
          FILTERS.forEach(name -> filters.put(name, valueOf(query, name)));
          parameters.put("filters", filters);
          parameters.put(
              "older",
              page.nextCursor() == null
                  ? null
                  : here(request) + query(query, Map.of("cursor", page.nextCursor())));
          return pages.render("audit.jte", parameters);
        });
  }

  private static String here(ContainerRequestContext request) {
    return ConsoleAuth.contextPath(request) + ConsoleAuth.ROOT + "/audit";
  }

  /** The query of {@code given} without its empty values, with {@code replaced} set instead. */
  static String query(MultivaluedMap<String, String> given, Map<String, String> replaced) {
    Map<String, List<String>> kept = new TreeMap<>();
    given.forEach(
        (name, values) ->
            kept.put(name, values.stream().filter(value -> !value.isEmpty()).toList()));
    replaced.forEach((name, value) -> kept.put(name, List.of(value)));
    String query =
        kept.entrySet().stream()
            .flatMap(
                entry ->
                    entry.getValue().stream()
                        .map(value -> encode(entry.getKey()) + "=" + encode(value)))
            .collect(Collectors.joining("&"));
    return query.isEmpty() ? "" : "?" + query;
  }

  private static String valueOf(MultivaluedMap<String, String> query, String name) {
    String value = query.getFirst(name);
    return value == null ? "" : value;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
