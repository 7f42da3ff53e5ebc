package dev.platform.identity.token;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.platform.identity.db.DatabaseTrouble;
import dev.platform.identity.http.Incident;
import dev.platform.identity.http.OAuthErrorBody;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One answer of the token endpoint, complete before anything is written: status, headers and JSON
 * body. Every answer is {@code no-store} (RFC 6749 §5.1). An error is SPEC 7.1's {@code {"error",
 * "error_description"}} (plus {@code retry_after} on a 429, RFC 6749 §5.2); only a 401 to a request
 * that tried HTTP Basic carries {@code WWW-Authenticate}, and a 400 never does, since clients such
 * as Spring Security's read a challenge on a 400 as a server error.
 *
 * @param status the HTTP status
 * @param headers the headers besides {@code Content-Type} and {@code Content-Length}
 * @param body the JSON body, UTF-8
 */
public record TokenAnswer(int status, Map<String, String> headers, byte[] body) {
  /** RFC 7617 §2: the challenge of a 401 to a Basic request. */
  public static final String BASIC_CHALLENGE = "Basic realm=\"identity\"";

  /**
   * The token path's one JSON mapper, snake_case: these bodies and the JWT's header and claims
   * ({@code TokenIssuer}). Configured once here, then only used, which is thread-safe.
   */
  static final ObjectMapper JSON =
      new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  public TokenAnswer {
    headers = Map.copyOf(headers);
  }

  /** 200 with the token response (SPEC 2.2). */
  static TokenAnswer of(TokenResponseBody token) {
    return new TokenAnswer(200, noStore(), json(token));
  }

  /** The answer to a refused request. */
  public static TokenAnswer of(OAuthError failure) {
    Map<String, String> headers = noStore();
    Long retryAfter = null;
    if (failure.retryAfterSeconds().isPresent()) {
      retryAfter = failure.retryAfterSeconds().getAsLong();
      headers.put("Retry-After", retryAfter.toString());
    }
    if (failure.basicChallenge()) {
      headers.put("WWW-Authenticate", BASIC_CHALLENGE);
    }
    OAuthErrorBody body =
        new OAuthErrorBody(failure.error(), failure.description(), retryAfter, null);
    return new TokenAnswer(failure.status(), headers, json(body));
  }

  /**
   * An unexpected failure: when the database was busy or slow, 500 {@code server_error} (SPEC 7.1)
   * that says so, with {@code Retry-After}, and no incident (the guard logs the stall once a
   * minute); otherwise 500 naming a logged incident.
   */
  public static TokenAnswer ofFailure(Throwable failure) {
    if (DatabaseTrouble.of(failure).isEmpty()) {
      return of(Incident.logged(failure));
    }
    Map<String, String> headers = noStore();
    headers.put("Retry-After", Integer.toString(DatabaseTrouble.RETRY_AFTER_SECONDS));
    OAuthErrorBody body = OAuthErrorBody.of(OAuthErrorBody.SERVER_ERROR, DatabaseTrouble.MESSAGE);
    return new TokenAnswer(500, headers, json(body));
  }

  /** 500 {@code server_error} naming the incident and nothing else. */
  static TokenAnswer of(Incident incident) {
    return new TokenAnswer(500, noStore(), json(OAuthErrorBody.of(incident)));
  }

  /** RFC 6749 §3.2: only POST; said in the OAuth shape, with {@code Allow}. */
  public static TokenAnswer onlyPost() {
    return onlyPost("The token endpoint");
  }

  /** {@link #onlyPost()} of another endpoint that takes a form: revocation, introspection. */
  static TokenAnswer onlyPost(String endpoint) {
    TokenAnswer refusal =
        of(new OAuthError(405, OAuthError.INVALID_REQUEST, endpoint + " accepts only POST"));
    Map<String, String> headers = new LinkedHashMap<>(refusal.headers());
    headers.put("Allow", "POST");
    return new TokenAnswer(405, headers, refusal.body());
  }

  /** 200 with {@code body} as JSON, not to be stored (RFC 7662 §2.2). */
  static TokenAnswer ok(Object body) {
    return new TokenAnswer(200, noStore(), json(body));
  }

  /** 200 with {@code json}, bytes made once, not to be stored. */
  static TokenAnswer okJson(byte[] json) {
    return new TokenAnswer(200, noStore(), json.clone());
  }

  /** 200 with no body: RFC 7009 §2.2's answer, whose body a client ignores. */
  static TokenAnswer okEmpty() {
    return new TokenAnswer(200, noStore(), new byte[0]);
  }

  /** This answer with one more header, or {@code name}'s value replaced. */
  TokenAnswer withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new TokenAnswer(status, more, body);
  }

  /** Writes the whole answer; the response must not be committed yet. */
  public void writeTo(HttpServletResponse response) throws IOException {
    response.setStatus(status);
    headers.forEach(response::setHeader);
    if (body.length == 0) {
      response.setContentLength(0);
      return;
    }
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  private static Map<String, String> noStore() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Cache-Control", "no-store");
    headers.put("Pragma", "no-cache");
    return headers;
  }

  private static byte[] json(Object body) {
    try {
      return JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
