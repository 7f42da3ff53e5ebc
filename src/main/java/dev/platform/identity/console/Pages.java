package dev.platform.identity.console;

import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.AuditEventsResource;
import dev.platform.identity.admin.ScopesResource;
import dev.platform.identity.admin.ServiceAccountsResource;
import dev.platform.identity.admin.SigningKeysResource;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Renders the console's pages from the templates of {@code src/main/jte}, compiled to classes at
 * build time (jte's HTML content type: every {@code ${}} is escaped for where it stands). The
 * security headers of every page come from {@link ConsoleHeaders}.
 */
final class Pages {
  static final MediaType HTML = MediaType.valueOf("text/html;charset=utf-8");

  private final TemplateEngine engine =
      TemplateEngine.createPrecompiled(
          null,
          ContentType.Html,
          Pages.class.getClassLoader(),
          "dev.platform.identity.console.templates");

  /** The page of {@code template} with {@code parameters}, answered with {@code status}. */
  Response render(int status, String template, Map<String, Object> parameters) {
    StringOutput output = new StringOutput();
    engine.render(template, parameters, output);
    return Response.status(status).type(HTML).entity(output.toString()).build();
  }

  Response render(String template, Map<String, Object> parameters) {
    return render(200, template, parameters);
  }

  /** The sections of the navigation, each with the API method whose scopes open it. */
  private static final List<Section> SECTIONS =
      List.of(
          new Section("Overview", "", null),
          new Section(
              "Accounts",
              "/accounts",
              ConsoleAuth.apiMethod(ServiceAccountsResource.class, "list")),
          new Section("Scopes", "/scopes", ConsoleAuth.apiMethod(ScopesResource.class, "list")),
          new Section(
              "Signing keys", "/keys", ConsoleAuth.apiMethod(SigningKeysResource.class, "list")),
          new Section(
              "Audit events", "/audit", ConsoleAuth.apiMethod(AuditEventsResource.class, "list")));

  private record Section(String label, String path, Method api) {
    boolean opensFor(AdminAuth.Caller caller) {
      return api == null || AdminAuth.requiredScopes(api).stream().anyMatch(caller::hasScope);
    }
  }

  /**
   * The frame of a page of the session: the sections the caller may open, as the API's scopes
   * decide, with {@code current} (a section's path, "" for the overview) marked.
   */
  static Frame frame(ContainerRequestContext request, String title, String current) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    String base = ConsoleAuth.contextPath(request) + ConsoleAuth.ROOT;
    return new Frame(
        title,
        base,
        ConsoleAuth.session(request).csrf(),
        caller.token().clientId(),
        SECTIONS.stream()
            .filter(section -> section.opensFor(caller))
            .map(
                section ->
                    new Frame.Section(
                        section.label(), base + section.path(), section.path().equals(current)))
            .toList());
  }

  /** Whether the caller may do what {@code api}, a method of the API, does. */
  static boolean allows(ContainerRequestContext request, Class<?> resource, String method) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    return AdminAuth.requiredScopes(ConsoleAuth.apiMethod(resource, method)).stream()
        .anyMatch(caller::hasScope);
  }

  /** To the login form, ending whatever session cookie the browser holds. */
  Response toLogin(ContainerRequestContext request, SessionCookies cookies) {
    String context = ConsoleAuth.contextPath(request);
    return Response.seeOther(URI.create(context + ConsoleAuth.ROOT + "/login"))
        .header(HttpHeaders.SET_COOKIE, cookies.clear(SessionCookies.SESSION, context))
        .build();
  }

  /** The fixed words of {@code notices} for the change a redirect names; null for anything else. */
  static String notice(Map<String, String> notices, String done) {
    return done == null ? null : notices.get(done);
  }

  /** The page {@code work} renders, or the API's (or the form's) refusal of it in words. */
  Response answer(ContainerRequestContext request, Supplier<Response> work) {
    try {
      return work.get();
    } catch (ApiError e) {
      return problem(request, e.status(), e.getMessage());
    } catch (FormFields.InvalidFormException e) {
      return problem(request, 400, e.getMessage());
    }
  }

  /** A refusal of the API in words, inside the frame of the session. */
  Response problem(ContainerRequestContext request, int status, String message) {
    Map<String, Object> parameters = new HashMap<>();
    parameters.put("frame", frame(request, "Not done", null));
    parameters.put("status", status);
    parameters.put("message", message);
    return render(status, "refusal.jte", parameters);
  }

  /** A refusal in words, outside the frame of a session. */
  Response refusal(ContainerRequestContext request, int status, String message) {
    Map<String, Object> parameters = new HashMap<>();
    parameters.put(
        "frame",
        Frame.anonymous("Not allowed", ConsoleAuth.contextPath(request) + ConsoleAuth.ROOT));
    parameters.put("status", status);
    parameters.put("message", message);
    return render(status, "refusal.jte", parameters);
  }
}
