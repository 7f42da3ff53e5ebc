package dev.platform.identity.web;

import dev.platform.identity.http.AbortedRequest;
import dev.platform.identity.http.Incident;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
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

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (response.isCommitted()) {
      return; // part of another answer is out: anything written now would corrupt it
    }
    int status = status(request);
    if (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable thrown
        && AbortedRequest.isCause(thrown)) {
      ErrorAnswers.clientError(
          response, HttpServletResponse.SC_BAD_REQUEST, Surface.of(path(request)));
    } else if (status >= 500) {
      serverError(request, response, status);
    } else {
      ErrorAnswers.clientError(response, status, Surface.of(path(request)));
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

  /** DESIGN decision 6: the cause is logged under an incident id, which is all the answer says. */
  private static void serverError(
      HttpServletRequest request, HttpServletResponse response, int status) throws IOException {
    Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
    Incident incident =
        failure instanceof Throwable thrown
            ? Incident.logged(thrown)
            : Incident.logged("the container answered " + status + " for " + path(request));
    ErrorAnswers.serverError(response, status, incident);
  }
}
