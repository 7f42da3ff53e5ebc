package dev.platform.identity.admin;

import dev.platform.identity.audit.AuditCursor;
import dev.platform.identity.audit.AuditEvents;
import dev.platform.identity.audit.AuditQuery;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code GET /admin/v1/audit-events}, the audit trail newest first. A caller without {@code
 * identity:admin} sees only the events about accounts of its own organizations.
 */
@Path("/admin/v1/audit-events")
@AnyScopeOf({AdminAuth.ADMIN, AdminAuth.AUDIT_READ})
@Produces(MediaType.APPLICATION_JSON)
public final class AuditEventsResource {
  static final Set<String> PARAMETERS =
      Set.of("event", "actor", "target", "since", "until", "limit", "cursor");

  private final AuditEvents events;

  public AuditEventsResource(AuditEvents events) {
    this.events = events;
  }

  @GET
  public AuditEventJson.Page list(@Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    AuditQuery query = query(request.getUriInfo().getQueryParameters(), caller);
    AuditEvents.Page page = events.list(query);
    return new AuditEventJson.Page(
        page.events().stream().map(AuditEventJson::from).toList(),
        page.next().map(AuditCursor::text).orElse(null));
  }

  /** The query the parameters ask for; a 400 naming the first parameter that is wrong. */
  static AuditQuery query(MultivaluedMap<String, String> parameters, AdminAuth.Caller caller) {
    parameters.keySet().stream()
        .filter(name -> !PARAMETERS.contains(name))
        .sorted()
        .findFirst()
        .ifPresent(name -> bad(name, "is not a parameter of this listing"));
    parameters.forEach(
        (name, values) -> {
          if (values.size() > 1) {
            bad(name, "is given twice");
          }
        });
    return new AuditQuery(
        text(parameters, "event"),
        text(parameters, "actor"),
        text(parameters, "target"),
        one(parameters, "since", AuditEventsResource::time),
        one(parameters, "until", AuditEventsResource::time),
        caller.isAdmin() ? Optional.empty() : Optional.of(caller.organizations()),
        one(parameters, "cursor", AuditEventsResource::cursor),
        one(parameters, "limit", AuditEventsResource::limit).orElse(AuditQuery.DEFAULT_LIMIT));
  }

  private static Optional<String> text(MultivaluedMap<String, String> parameters, String name) {
    return one(parameters, name, value -> value.isEmpty() ? bad(name, "is empty") : value);
  }

  /** The parameter's one value read by {@code parse}, which may throw a 400 naming it. */
  private static <T> Optional<T> one(
      MultivaluedMap<String, String> parameters, String name, Function<String, T> parse) {
    return Optional.ofNullable(parameters.getFirst(name))
        .map(
            value -> {
              try {
                return parse.apply(value);
              } catch (IllegalArgumentException | DateTimeParseException e) {
                return bad(name, "is malformed");
              }
            });
  }

  private static Instant time(String value) {
    return AuditCursor.time(value);
  }

  private static AuditCursor cursor(String value) {
    return AuditCursor.parse(value).orElseThrow(IllegalArgumentException::new);
  }

  private static int limit(String value) {
    if (!value.matches("[0-9]{1,4}")) {
      throw new IllegalArgumentException(value);
    }
    int limit = Integer.parseInt(value);
    if (limit < 1 || limit > AuditQuery.MAX_LIMIT) {
      throw ApiError.badRequest("limit must be from 1 to " + AuditQuery.MAX_LIMIT);
    }
    return limit;
  }

  private static <T> T bad(String name, String why) {
    throw ApiError.badRequest("the query parameter " + name + " " + why);
  }
}
