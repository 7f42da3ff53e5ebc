package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Malformed and odd requests, as a security review's fuzzer sent them: each answer is JSON in the
 * shape of the surface it was for (SPEC 7, DESIGN decision 6), whether the service, Jersey or
 * Tomcat itself refused it. The requests go out byte for byte ({@link RawHttp}).
 */
@ExtendWith(ArquillianExtension.class)
class ErrorShapesIT {
  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  private RawHttp raw() {
    return new RawHttp(URI.create(base.toString()));
  }

  private String kid() {
    return Http.json(new Http(base).get("/api/public-keys")).get("keys").get(0).get("kid").asText();
  }

  @Test
  void whenKeyLookupPathIsMalformedThen404WithAnErrorBody() {
    String kid = kid();
    for (String path :
        List.of(
            "/api/public-keys//",
            "/api/public-keys/" + kid + "/.",
            "/api/public-keys/a/b",
            "/api/public-keys/%2e%2e/x")) {
      ErrorShapes.error(raw().send("GET", path), 404);
    }
    // A path parameter is refused before routing, on every Jersey path (issue 16).
    ErrorShapes.error(raw().send("GET", "/api/public-keys/no-such-key;x"), 400);
  }

  @Test
  void whenPathClimbsIntoWebInfThen404WithAnErrorBody() {
    for (String path :
        List.of(
            "/api/public-keys/../../WEB-INF/web.xml",
            "/api/public-keys/%2e%2e/%2e%2e/WEB-INF/web.xml",
            "/WEB-INF/web.xml",
            "/META-INF/context.xml")) {
      ErrorShapes.error(raw().send("GET", path), 404);
    }
  }

  @Test
  void whenPathIsUnknownThen404WithAnErrorBody() {
    ErrorShapes.error(raw().send("GET", "/nope"), 404);
    ErrorShapes.error(raw().send("OPTIONS", "/nope"), 404);
    ErrorShapes.error(raw().send("DELETE", "/nope/deeper"), 404);
    ErrorShapes.error(raw().send("GET", "/oauth/token/.."), 404); // that is /oauth
  }

  @Test
  void whenPathIsBelowTheTokenEndpointThen404InTheOAuthShape() {
    ErrorShapes.oauth(raw().send("POST", "/oauth/token/x"), 404);
    ErrorShapes.oauth(raw().send("GET", "/oauth/token/a/b"), 404);
  }

  @Test
  void whenTraceOnTokenEndpointThen405InTheOAuthShapeWithAllowPost() {
    RawHttp.Answer answer = raw().send("TRACE", "/oauth/token");

    assertEquals("invalid_request", ErrorShapes.oauth(answer, 405).get("error").asText());
    assertEquals("POST", answer.header("Allow"), answer.toString());
  }

  @Test
  void whenOtherMethodOrOddPathOnTokenEndpointThen405InTheOAuthShape() {
    for (String request :
        List.of(
            "OPTIONS /oauth/token",
            "PATCH /oauth/token",
            "GET //oauth/token",
            "GET /oauth/token;x")) {
      String[] parts = request.split(" ");
      RawHttp.Answer answer = raw().send(parts[0], parts[1]);
      assertEquals("invalid_request", ErrorShapes.oauth(answer, 405).get("error").asText());
      assertEquals("POST", answer.header("Allow"), answer.toString());
    }
  }

  @Test
  void whenKeyEndpointsGetAnotherMethodThen405WithAllowGet() {
    String kid = kid();
    for (String request :
        List.of(
            "TRACE /api/public-keys",
            "PATCH /api/public-keys",
            "OPTIONS /api/public-keys",
            "TRACE /api/public-keys/" + kid,
            "PATCH /api/public-keys/" + kid,
            "DELETE /api/public-keys/" + kid)) {
      String[] parts = request.split(" ");
      RawHttp.Answer answer = raw().send(parts[0], parts[1]);
      ErrorShapes.error(answer, 405);
      assertTrue(answer.header("Allow").contains("GET"), request + ": " + answer);
      assertTrue(!answer.header("Allow").contains("TRACE"), request + ": " + answer);
    }
  }

  /**
   * Tomcat refuses a URI it cannot decode or normalize before it maps the request to the
   * application (docs/api.md), so no error page of the WAR can answer: the host's error report
   * valve does. What matters is that the application never sees such a path.
   */
  @Test
  void whenUriCannotBeDecodedThenTomcatRefusesIt400BeforeTheApplication() {
    for (String path :
        List.of(
            "/api/public-keys/a%2Fb",
            "/api/public-keys/%5C",
            "/api/public-keys/%zz",
            "/api/public-keys/%",
            "/api/public-keys/%00",
            "/oauth/token/%zz",
            "/..")) {
      RawHttp.Answer answer = raw().send("GET", path);
      assertEquals(400, answer.status(), path + ": " + answer);
    }
  }

  @Test
  void whenTomcatRefusesTooManyCookiesThen400InTheShapeOfTheSurface() {
    StringBuilder cookies = new StringBuilder("Cookie: c0=0");
    for (int i = 1; i < 300; i++) {
      cookies.append("; c").append(i).append('=').append(i); // Tomcat's maxCookieCount is 200
    }

    ErrorShapes.oauth(raw().send("POST", "/oauth/token", cookies.toString()), 400);
    ErrorShapes.error(raw().send("GET", "/api/public-keys", cookies.toString()), 400);
  }

  @Test
  void whenAdministrationPathIsRefusedByTheContainerThenTheApiShape() {
    ErrorShapes.api(raw().send("TRACE", "/admin/v1/service-accounts"), 405);
    ErrorShapes.api(raw().send("TRACE", "/admin/v1"), 405);
  }

  @Test
  void whenErrorPageIsRequestedDirectlyThen404WithAnErrorBody() {
    for (String method : List.of("GET", "POST", "TRACE")) {
      ErrorShapes.error(
          raw().send(method, "/WEB-INF/error-page"), method.equals("TRACE") ? 405 : 404);
    }
  }

  @Test
  void whenPathCarriesAParameterThenTheKeyListStillAnswers() {
    RawHttp.Answer answer = raw().send("GET", "/api/public-keys;x");

    assertEquals(200, answer.status(), answer.toString());
    assertTrue(answer.body().startsWith("{\"keys\":["), answer.toString());
  }
}
