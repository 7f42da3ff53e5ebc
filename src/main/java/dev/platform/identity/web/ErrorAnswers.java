package dev.platform.identity.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.platform.identity.http.ApiErrorBody;
import dev.platform.identity.http.ErrorBody;
import dev.platform.identity.http.Incident;
import dev.platform.identity.http.OAuthErrorBody;
import dev.platform.identity.token.OAuthError;
import dev.platform.identity.token.TokenAnswer;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;

/**
 * The answers the service writes without a resource: the container's errors (through {@link
 * ErrorPageServlet}) and the front door's refusals, each in the JSON shape of the surface the
 * request was for (SPEC 7, DESIGN decision 6).
 */
final class ErrorAnswers {
  private static final ObjectMapper JSON =
      new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  private ErrorAnswers() {}

  /** A client error with the status's own reason: what the container or Jersey refused. */
  static void clientError(HttpServletResponse response, int status, Surface surface)
      throws IOException {
    String reason = StatusTexts.reason(status);
    switch (surface) {
      case TOKEN -> tokenError(status, reason).writeTo(response);
      case ADMINISTRATION -> write(response, status, ApiErrorBody.of(reason));
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

  /**
   * A refusal of the front door, saying why: the token endpoint's is SPEC 7.1's {@code
   * invalid_request} (400) or {@code rate_limit_exceeded} (429); elsewhere the status itself.
   */
  static void refusal(HttpServletResponse response, Surface surface, int status, String message)
      throws IOException {
    if (status == 429) {
      response.setHeader("Retry-After", "1");
    }
    switch (surface) {
      case TOKEN -> TokenAnswer.of(tokenRefusal(status, message)).writeTo(response);
      case ADMINISTRATION -> write(response, status, ApiErrorBody.of(message));
      case KEYS, OTHER -> write(response, status, new ErrorBody(message));
    }
  }

  /** DESIGN decision 6: the cause is logged under an incident id, which is all the answer says. */
  static void serverError(HttpServletResponse response, int status, Incident incident)
      throws IOException {
    response.setHeader("Pragma", "no-cache");
    write(response, status, OAuthErrorBody.of(incident));
  }

  private static OAuthError tokenRefusal(int status, String message) {
    return status == 429
        ? OAuthError.rateLimitExceeded(message, Duration.ofSeconds(1))
        : OAuthError.invalidRequest(message);
  }

  /** SPEC 7.1; a 405 exactly as the token endpoint answers other methods itself. */
  private static TokenAnswer tokenError(int status, String reason) {
    if (status == HttpServletResponse.SC_METHOD_NOT_ALLOWED) {
      return TokenAnswer.onlyPost();
    }
    return TokenAnswer.of(new OAuthError(status, OAuthError.INVALID_REQUEST, reason));
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
