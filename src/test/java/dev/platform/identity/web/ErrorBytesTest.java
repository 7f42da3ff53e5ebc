package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.ApiErrorMapper;
import dev.platform.identity.http.CapturedResponse;
import dev.platform.identity.http.Incident;
import dev.platform.identity.token.OAuthError;
import dev.platform.identity.token.TokenAnswer;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every error answer the service writes without a resource of its own, byte for byte: status,
 * headers and body, each surface and each writer (the error page's and the front door's servlet
 * answers, Jersey's catch-all and mappers, the token endpoint's). Where these bytes move, a client
 * sees a change, so the shapes' records may move between homes only while this reads the same.
 */
class ErrorBytesTest {
  /** Jersey's own mapper (the one {@link Json} gives it), so entities read as they are sent. */
  private static final ObjectMapper JERSEY = new Json().getContext(Object.class);

  private static final Incident INCIDENT = new Incident("0f1e2d3c");

  @Test
  void whenTheContainerRefusesOnEachSurfaceThenTheErrorPageWritesTheseBytes() throws IOException {
    List<String> answers = new ArrayList<>();
    for (Surface surface : Surface.values()) {
      for (int status : new int[] {400, 404, 405, 418, 599}) {
        CapturedResponse response = new CapturedResponse();
        ErrorAnswers.clientError(response.proxy(), status, surface);
        answers.add(surface + " " + response);
      }
    }
    assertEquals(
        """
        TOKEN 400 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"Bad Request"}
        TOKEN 404 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"Not Found"}
        TOKEN 405 {Allow=POST, Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"The token endpoint accepts only POST"}
        TOKEN 418 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"HTTP status 418"}
        TOKEN 599 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"HTTP status 599"}
        ADMINISTRATION 400 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"Bad Request"}
        ADMINISTRATION 404 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"Not Found"}
        ADMINISTRATION 405 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"Method Not Allowed"}
        ADMINISTRATION 418 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"HTTP status 418"}
        ADMINISTRATION 599 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"HTTP status 599"}
        KEYS 400 {Cache-Control=no-store, Content-Type=application/json} {"error":"Bad Request"}
        KEYS 404 {Cache-Control=no-store, Content-Type=application/json} {"error":"Not Found"}
        KEYS 405 {Allow=GET, HEAD, Cache-Control=no-store, Content-Type=application/json} {"error":"Method Not Allowed"}
        KEYS 418 {Cache-Control=no-store, Content-Type=application/json} {"error":"HTTP status 418"}
        KEYS 599 {Cache-Control=no-store, Content-Type=application/json} {"error":"HTTP status 599"}
        OTHER 400 {Cache-Control=no-store, Content-Type=application/json} {"error":"Bad Request"}
        OTHER 404 {Cache-Control=no-store, Content-Type=application/json} {"error":"Not Found"}
        OTHER 405 {Cache-Control=no-store, Content-Type=application/json} {"error":"Method Not Allowed"}
        OTHER 418 {Cache-Control=no-store, Content-Type=application/json} {"error":"HTTP status 418"}
        OTHER 599 {Cache-Control=no-store, Content-Type=application/json} {"error":"HTTP status 599"}
        """,
        lines(answers));
  }

  @Test
  void whenTheFrontDoorRefusesOnEachSurfaceThenItWritesTheseBytes() throws IOException {
    List<String> answers = new ArrayList<>();
    for (Surface surface : Surface.values()) {
      for (int status : new int[] {400, 413, 429, 503}) {
        CapturedResponse response = new CapturedResponse();
        ErrorAnswers.refusal(response.proxy(), surface, status, "Why \"so\" é");
        answers.add(surface + " " + response);
      }
    }
    assertEquals(
        """
        TOKEN 400 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"Why 'so' ?"}
        TOKEN 400 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"Why 'so' ?"}
        TOKEN 429 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache, Retry-After=1} {"error":"rate_limit_exceeded","error_description":"Why 'so' ?","retry_after":1}
        TOKEN 400 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"invalid_request","error_description":"Why 'so' ?"}
        ADMINISTRATION 400 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"Why \\"so\\" é"}
        ADMINISTRATION 413 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"Why \\"so\\" é"}
        ADMINISTRATION 429 {Cache-Control=no-store, Content-Type=application/json, Retry-After=1} {"success":false,"message":"Why \\"so\\" é"}
        ADMINISTRATION 503 {Cache-Control=no-store, Content-Type=application/json} {"success":false,"message":"Why \\"so\\" é"}
        KEYS 400 {Cache-Control=no-store, Content-Type=application/json} {"error":"Why \\"so\\" é"}
        KEYS 413 {Cache-Control=no-store, Content-Type=application/json} {"error":"Why \\"so\\" é"}
        KEYS 429 {Cache-Control=no-store, Content-Type=application/json, Retry-After=1} {"error":"Why \\"so\\" é"}
        KEYS 503 {Cache-Control=no-store, Content-Type=application/json} {"error":"Why \\"so\\" é"}
        OTHER 400 {Cache-Control=no-store, Content-Type=application/json} {"error":"Why \\"so\\" é"}
        OTHER 413 {Cache-Control=no-store, Content-Type=application/json} {"error":"Why \\"so\\" é"}
        OTHER 429 {Cache-Control=no-store, Content-Type=application/json, Retry-After=1} {"error":"Why \\"so\\" é"}
        OTHER 503 {Cache-Control=no-store, Content-Type=application/json} {"error":"Why \\"so\\" é"}
        """,
        lines(answers));
  }

  @Test
  void whenAServerErrorIsWrittenByTheServletsThenItNamesTheIncidentOnly() throws IOException {
    CapturedResponse page = new CapturedResponse();
    ErrorAnswers.serverError(page.proxy(), 502, INCIDENT);
    CapturedResponse token = new CapturedResponse();
    TokenAnswer.ofFailure(DatabaseUnavailableTest.LOCK_TIMEOUT).writeTo(token.proxy());
    assertEquals(
        """
        page 502 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache} {"error":"server_error","error_description":"Internal error; incident 0f1e2d3c is logged","incident_id":"0f1e2d3c"}
        token busy 500 {Cache-Control=no-store, Content-Type=application/json, Pragma=no-cache, Retry-After=2} {"error":"server_error","error_description":"The service's database is busy or slow; retry after 2 s"}
        """,
        lines(List.of("page " + page, "token busy " + token)));
  }

  @Test
  void whenJerseyRaisesAClientErrorOnEachSurfaceThenTheCatchAllAnswersTheseBytes()
      throws IOException {
    List<String> answers = new ArrayList<>();
    for (String path :
        new String[] {"oauth/token/x", "admin/v1/nothing", "api/public-keys/x/y", "nothing"}) {
      answers.add(
          path + " " + jersey(ServerErrorMappers.at(path).toResponse(new NotFoundException())));
      answers.add(
          path
              + " "
              + jersey(
                  ServerErrorMappers.at(path)
                      .toResponse(new NotAllowedException("GET", new String[] {"HEAD"}))));
      answers.add(
          path
              + " "
              + jersey(
                  ServerErrorMappers.at(path).toResponse(DatabaseUnavailableTest.LOCK_TIMEOUT)));
      answers.add(
          path + " " + jersey(ServerErrorMappers.at(path).toResponse(new ClientAbortException())));
      answers.add(path + " " + jersey(ClientErrors.of(400, "no ';' here", path)));
    }
    for (int status : new int[] {404, 405, 406, 415, 418}) {
      answers.add(status + " " + StatusTexts.explanation(status));
    }
    assertEquals(
        """
        oauth/token/x 404 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"invalid_request","error_description":"No resource at this path"}
        oauth/token/x 405 {Allow=[HEAD,GET], Cache-Control=[no-store], Content-Type=[application/json]} {"error":"invalid_request","error_description":"Method not allowed at this path"}
        oauth/token/x 503 {Cache-Control=[no-store], Content-Type=[application/json], Retry-After=[2]} {"error":"invalid_request","error_description":"The service's database is busy or slow; retry after 2 s"}
        oauth/token/x 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"invalid_request","error_description":"The request body ended before it was complete"}
        oauth/token/x 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"invalid_request","error_description":"no ';' here"}
        admin/v1/nothing 404 {Cache-Control=[no-store], Content-Type=[application/json]} {"success":false,"message":"No resource at this path"}
        admin/v1/nothing 405 {Allow=[HEAD,GET], Cache-Control=[no-store], Content-Type=[application/json]} {"success":false,"message":"Method not allowed at this path"}
        admin/v1/nothing 503 {Cache-Control=[no-store], Content-Type=[application/json], Retry-After=[2]} {"success":false,"message":"The service's database is busy or slow; retry after 2 s"}
        admin/v1/nothing 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"success":false,"message":"The request body ended before it was complete"}
        admin/v1/nothing 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"success":false,"message":"no ';' here"}
        api/public-keys/x/y 404 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"No resource at this path"}
        api/public-keys/x/y 405 {Allow=[HEAD,GET], Cache-Control=[no-store], Content-Type=[application/json]} {"error":"Method not allowed at this path"}
        api/public-keys/x/y 503 {Cache-Control=[no-store], Content-Type=[application/json], Retry-After=[2]} {"error":"The service's database is busy or slow; retry after 2 s"}
        api/public-keys/x/y 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"The request body ended before it was complete"}
        api/public-keys/x/y 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"no ';' here"}
        nothing 404 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"No resource at this path"}
        nothing 405 {Allow=[HEAD,GET], Cache-Control=[no-store], Content-Type=[application/json]} {"error":"Method not allowed at this path"}
        nothing 503 {Cache-Control=[no-store], Content-Type=[application/json], Retry-After=[2]} {"error":"The service's database is busy or slow; retry after 2 s"}
        nothing 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"The request body ended before it was complete"}
        nothing 400 {Cache-Control=[no-store], Content-Type=[application/json]} {"error":"no ';' here"}
        404 No resource at this path
        405 Method not allowed at this path
        406 No acceptable representation: this API answers application/json
        415 Unsupported Content-Type: send application/json
        418 The request was refused (HTTP 418)
        """,
        lines(answers));
  }

  @Test
  void whenTheFeatureMappersAnswerThenTheyWriteTheseBytes() throws IOException {
    List<String> answers = new ArrayList<>();
    answers.add("api " + jersey(new ApiErrorMapper().toResponse(ApiError.of(409, "Taken \"x\""))));
    answers.add(
        "500 "
            + jersey(
                ServerErrorMappers.at("admin/v1/x").toResponse(new IllegalStateException("x"))));
    answers.add(
        "token "
            + new String(
                TokenAnswer.of(OAuthError.invalidScope("scope \"x\" is unknown")).body(),
                StandardCharsets.UTF_8));
    assertEquals(
        """
        api 409 {Cache-Control=[no-store], Content-Type=[application/json]} {"success":false,"message":"Taken \\"x\\""}
        500 500 {Cache-Control=[no-store], Content-Type=[application/json], Pragma=[no-cache]} {"error":"server_error","error_description":"Internal error; incident <incident> is logged","incident_id":"<incident>"}
        token {"error":"invalid_scope","error_description":"scope 'x' is unknown"}
        """,
        lines(answers).replaceAll("[0-9a-f-]{36}", "<incident>"));
  }

  /** Named as Tomcat's, which is how a request the client gave up on is recognized. */
  private static final class ClientAbortException extends IOException {}

  private static String lines(List<String> answers) {
    return String.join("\n", answers) + "\n";
  }

  /** Status, headers (sorted) and the entity as Jersey writes it. */
  private static String jersey(Response response) throws IOException {
    Map<String, String> headers = new TreeMap<>();
    response.getHeaders().forEach((name, values) -> headers.put(name, values.toString()));
    return response.getStatus()
        + " "
        + headers
        + " "
        + (response.getEntity() instanceof String text
            ? text
            : JERSEY.writeValueAsString(response.getEntity()));
  }
}
