package dev.platform.identity.web;

import dev.platform.identity.http.Incident;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;

/**
 * A response that knows whether an error was sent through it, for {@link FrontDoor}: such an answer
 * is the container's error page to write, so the front door does not flush it first. Within a
 * request whose body was read without a thread, the container's error page does not run (the
 * request is asynchronous), so an error sent there is answered here at once, as the error page
 * would answer it.
 */
final class WatchedResponse extends HttpServletResponseWrapper {
  private final HttpServletRequest request;
  private final boolean answerErrors;
  private boolean sentError;

  private WatchedResponse(
      HttpServletRequest request, HttpServletResponse response, boolean answerErrors) {
    super(response);
    this.request = request;
    this.answerErrors = answerErrors;
  }

  /** For a request the container goes on with: its error page answers errors. */
  static WatchedResponse of(HttpServletRequest request, HttpServletResponse response) {
    return new WatchedResponse(request, response, false);
  }

  /** For a request whose body was read without a thread: errors are answered here. */
  static WatchedResponse answeringErrors(HttpServletRequest request, HttpServletResponse response) {
    return new WatchedResponse(request, response, true);
  }

  boolean sentError() {
    return sentError;
  }

  @Override
  public void sendError(int status) throws IOException {
    sendError(status, null);
  }

  @Override
  public void sendError(int status, String message) throws IOException {
    sentError = true;
    if (!answerErrors) {
      super.sendError(status, message);
      return;
    }
    resetBuffer();
    Surface surface = Surface.of(BodyLimits.mappedPath(request));
    if (status >= 500) {
      ErrorAnswers.serverError(
          this,
          status,
          Incident.logged(
              "the service answered " + status + " for " + BodyLimits.mappedPath(request)));
    } else {
      ErrorAnswers.clientError(this, status, surface);
    }
    sentError = false; // answered here: the front door writes it out like any other answer
  }
}
