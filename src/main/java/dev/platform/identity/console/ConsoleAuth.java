package dev.platform.identity.console;

import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.ApiError;
import jakarta.annotation.Priority;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * Authorisation of the console, in one place: every request that Jersey routed to a resource under
 * {@code /console}, but for the {@link Anonymous} few, needs a live session (sealed, not ended by a
 * logout, within its token's lifetime and the idle timeout); a request that is not {@code GET}
 * needs the session's CSRF token in its form; and then the session's token meets {@link
 * AdminAuth#admit}, the administration API's own check, as {@code DPoP} with a proof by the
 * session's key ({@link SessionProofs}), with the scopes of the API method the console method
 * {@link Performs}. Like {@code AdminAuth}, it decides from what Jersey matched, never from how the
 * path was spelled.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
final class ConsoleAuth implements ContainerRequestFilter, ContainerResponseFilter {
  static final String ROOT = "/console";
  static final String CSRF = "csrf";
  static final int MAX_FORM = 64 * 1024;
  private static final String SESSION = ConsoleAuth.class.getName() + ".session";

  private final AdminAuth admin;
  private final SessionProofs proofs;
  private final SessionCookies cookies;
  private final EndedSessions ended;
  private final Pages pages;
  private final Duration idleTimeout;
  private final Clock clock;

  ConsoleAuth(
      AdminAuth admin,
      SessionProofs proofs,
      SessionCookies cookies,
      EndedSessions ended,
      Pages pages,
      Duration idleTimeout,
      Clock clock) {
    this.admin = admin;
    this.proofs = proofs;
    this.cookies = cookies;
    this.ended = ended;
    this.pages = pages;
    this.idleTimeout = idleTimeout;
    this.clock = clock;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    ExtendedUriInfo matched = (ExtendedUriInfo) request.getUriInfo();
    if (!AdminAuth.isUnder(matched.getMatchedModelResource(), ROOT)) {
      return;
    }
    Method method = handling(matched.getMatchedResourceMethod());
    if (method != null && method.isAnnotationPresent(Anonymous.class)) {
      return;
    }
    Instant now = clock.instant();
    Optional<ConsoleSession> live =
        cookies
            .session(request)
            .filter(session -> session.isLiveAt(now, idleTimeout))
            .filter(session -> !ended.isEnded(session));
    if (live.isEmpty()) {
      request.abortWith(pages.toLogin(request, cookies));
      return;
    }
    ConsoleSession session = live.get();
    if (!HttpMethod.GET.equals(request.getMethod()) && !hasCsrf(request, session)) {
      request.abortWith(
          pages.refusal(
              request,
              403,
              "This form is stale or did not come from the console. Reload the page and try"
                  + " again."));
      return;
    }
    try {
      admin.admit(
          request,
          SessionProofs.authorization(session.token()),
          proofs.of(request, session.key(), session.token()),
          requiredScopes(method));
    } catch (ApiError e) {
      request.abortWith(
          e.status() == 401
              ? pages.toLogin(request, cookies)
              : pages.refusal(request, e.status(), e.getMessage()));
      return;
    }
    request.setProperty(SESSION, session.seenAt(now));
  }

  /** A live session slides its idle timeout forward with each request it makes. */
  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    Object session = request.getProperty(SESSION);
    if (session != null && !response.getHeaders().containsKey(HttpHeaders.SET_COOKIE)) {
      response
          .getHeaders()
          .add(HttpHeaders.SET_COOKIE, cookies.set((ConsoleSession) session, contextPath(request)));
    }
  }

  /** The session of a request that {@link #filter} let through. */
  static ConsoleSession session(ContainerRequestContext request) {
    Object session = request.getProperty(SESSION);
    if (session == null) {
      throw new IllegalStateException("a console page ran without ConsoleAuth");
    }
    return (ConsoleSession) session;
  }

  /** The application's context path, without a trailing slash: "" at the root. */
  static String contextPath(ContainerRequestContext request) {
    String base = request.getUriInfo().getBaseUri().getRawPath();
    return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  /**
   * The scopes of which the caller needs one: those of the API method the console method performs,
   * else its own {@code AnyScopeOf}, else {@code identity:admin}.
   */
  static List<String> requiredScopes(Method method) {
    Performs performs = method == null ? null : method.getAnnotation(Performs.class);
    return AdminAuth.requiredScopes(
        performs == null ? method : apiMethod(performs.resource(), performs.method()));
  }

  /** The one public method {@code name} of the API's resource class. */
  static Method apiMethod(Class<?> resource, String name) {
    List<Method> found =
        Arrays.stream(resource.getMethods())
            .filter(method -> method.getName().equals(name))
            .toList();
    if (found.size() != 1) {
      throw new IllegalStateException(
          resource.getSimpleName() + " has " + found.size() + " public methods " + name);
    }
    return found.get(0);
  }

  /**
   * The form's one {@code csrf} field equals the session's. The form is read here, bounded, and put
   * back for the resource; a form of another type or naming the field twice has none.
   */
  private static boolean hasCsrf(ContainerRequestContext request, ConsoleSession session) {
    if (!MediaType.APPLICATION_FORM_URLENCODED_TYPE.isCompatible(request.getMediaType())) {
      return false;
    }
    byte[] body;
    try {
      body = request.getEntityStream().readNBytes(MAX_FORM + 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    request.setEntityStream(new ByteArrayInputStream(body));
    if (body.length > MAX_FORM) {
      return false;
    }
    List<String> given = FormFields.parse(body).get(CSRF);
    return given != null && given.size() == 1 && session.isCsrf(given.get(0));
  }

  private static Method handling(ResourceMethod matched) {
    return matched == null ? null : matched.getInvocable().getHandlingMethod();
  }
}
