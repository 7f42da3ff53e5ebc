package dev.platform.identity.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.platform.identity.http.Incident;
import dev.platform.identity.http.ServerError;
import dev.platform.identity.token.OAuthError;
import dev.platform.identity.token.TokenAnswer;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;

/**
 * The error page (web.xml's default {@code <error-page>}) of every error that has no body of the
 * service's own: what the container refuses before any servlet runs (a URI it cannot decode, a path
 * into WEB-INF, TRACE), an exception that reached the container, and Jersey's own 404, 405 and 415.
 * It answers in the JSON shape of the surface the request was for (DESIGN decision 6), with a
 * message of its own: the container's message can carry an exception's text.
 */
final class ErrorPageServlet extends HttpServlet {
  /** Under WEB-INF, which no request reaches: only the container's error dispatch comes here. */
  static final String PATH = "/WEB-INF/error-page";

  /** SPEC 7.3's body, and that of any other path. */
  record ErrorBody(String error) {}

  /** SPEC 7.2's body. */
  record ApiErrorBody(boolean success, String message) {}

  private static final ObjectMapper JSON =
      new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (response.isCommitted()) {
      return; // part of another answer is out: anything written now would corrupt it
    }
    int status = status(request);
    if (status >= 500) {
      serverError(request, response, status);
    } else {
      clientError(response, status, Surface.of(path(request)));
    }
  }

  /** The container's status; without one the page itself was requested, a path like any other. */
  private static int status(HttpServletRequest request) {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    return code instanceof Integer known && known >= 400 && known <= 599 ? known : 404;
  }

  /** The path, within the application, of the request that failed, as it was sent. */
  private static String path(HttpServletRequest request) {
    Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
    String path = uri instanceof String sent ? sent : request.getRequestURI();
    return path.substring(Math.min(request.getContextPath().length(), path.length()));
  }

  private static void clientError(HttpServletResponse response, int status, Surface surface)
      throws IOException {
    String reason = reason(status);
    switch (surface) {
      case TOKEN -> tokenError(status, reason).writeTo(response);
      case ADMINISTRATION -> write(response, status, new ApiErrorBody(false, reason));
      case KEYS -> {
        if (status == HttpServletResponse.SC_METHOD_NOT_ALLOWED) {
          // Both key endpoints only read. Tomcat's own Allow for a refused TRACE names OPTIONS
          // alone: it reads doGet-style methods, which these servlets do not have.
          response.setHeader("Allow", "GET, HEAD");
        }
        write(response, status, new ErrorBody(reason));
      }
      case OTHER -> write(response, status, new ErrorBody(reason)); // keeps any Allow header
    }
  }

  /** SPEC 7.1; a 405 exactly as the token endpoint answers other methods itself. */
  private static TokenAnswer tokenError(int status, String reason) {
    if (status == HttpServletResponse.SC_METHOD_NOT_ALLOWED) {
      return TokenAnswer.onlyPost();
    }
    return TokenAnswer.of(new OAuthError(status, OAuthError.INVALID_REQUEST, reason));
  }

  /** DESIGN decision 6: the cause is logged under an incident id, which is all the answer says. */
  private static void serverError(
      HttpServletRequest request, HttpServletResponse response, int status) throws IOException {
    Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
    Incident incident =
        failure instanceof Throwable thrown
            ? Incident.logged(thrown)
            : Incident.logged("the container answered " + status + " for " + path(request));
    response.setHeader("Pragma", "no-cache");
    write(response, status, ServerError.of(incident));
  }

  private static String reason(int status) {
    Response.Status known = Response.Status.fromStatusCode(status);
    return known == null ? "HTTP status " + status : known.getReasonPhrase();
  }

  private static void write(HttpServletResponse response, int status, Object body)
      throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    response.setStatus(status);
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("application/json");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }
}
