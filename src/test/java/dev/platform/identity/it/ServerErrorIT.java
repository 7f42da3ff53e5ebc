package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.http.Incident;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.glassfish.jersey.internal.spi.AutoDiscoverable;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArquillianExtension.class)
class ServerErrorIT {
  /**
   * The real WAR whose web.xml names the test listener instead of the real one, and whose service
   * file has Jersey add the failing resource to the real application.
   */
  @Deployment(testable = false)
  static WebArchive deployment() throws Exception {
    WebArchive war =
        Deployments.war()
            .addClasses(
                FailingStartup.class,
                FailingStartup.Failing.class,
                FailingStartup.FailingDiscovery.class,
                FailingStartup.FailingServlet.class)
            .addAsResource(
                new StringAsset(FailingStartup.FailingDiscovery.class.getName()),
                "META-INF/services/" + AutoDiscoverable.class.getName());
    String webXml =
        new String(
                war.get("WEB-INF/web.xml").getAsset().openStream().readAllBytes(),
                StandardCharsets.UTF_8)
            .replace("dev.platform.identity.web.Startup", FailingStartup.class.getName());
    war.delete("WEB-INF/web.xml");
    return war.setWebXML(new StringAsset(webXml));
  }

  @ArquillianResource URL base;

  @Test
  void whenAResourceFailsThen500WithIncidentIdAndNoDetail() {
    HttpResponse<String> response = new Http(base).get("/test/fail");

    assertEquals(500, response.statusCode());
    assertTrue(
        response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(null));
    JsonNode body = Http.json(response);
    assertEquals("server_error", body.get("error").asText());
    String incident = body.get("incident_id").asText();
    assertTrue(incident.matches("[0-9a-f-]{36}"), incident);
    assertTrue(body.get("error_description").asText().contains(incident));
    assertFalse(response.body().contains("db-7"));
    assertFalse(response.body().contains("IllegalStateException"));
    assertFalse(response.body().contains("at dev.platform"));
  }

  @Test
  void whenAnExceptionReachesTheContainerThen500WithIncidentIdAndNoDetail() {
    RawHttp.Answer answer =
        new RawHttp(URI.create(base.toString())).send("GET", "/test/servlet-fail");

    ErrorShapes.serverError(answer);
    assertFalse(answer.body().contains("db-7"), answer.toString());
  }

  @Test
  void whenTwoFailuresThenTwoIncidents() {
    Http http = new Http(base);

    String first = Http.json(http.get("/test/fail")).get("incident_id").asText();
    String second = Http.json(http.get("/test/fail")).get("incident_id").asText();

    assertFalse(first.equals(second));
  }

  /**
   * Issue 36 item 7: a failure that repeats (as every request does in a database outage) is logged
   * with its stack trace once, and each repeat's own id in a line of its own without one.
   */
  @Test
  void whenTheSameFailureRepeatsThenEachIdIsLoggedAndAtMostOneStackTrace() {
    Logger incidents = Logger.getLogger(Incident.class.getName());
    Level level = incidents.getLevel();
    List<LogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            records.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    incidents.setLevel(Level.FINE);
    incidents.addHandler(capture);
    try {
      Http http = new Http(base);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        ids.add(Http.json(http.get("/test/fail")).get("incident_id").asText());
      }

      assertEquals(5, Set.copyOf(ids).size(), ids.toString());
      for (String id : ids) {
        assertTrue(
            records.stream().anyMatch(record -> record.getMessage().startsWith("Incident " + id)),
            id + " in " + records.stream().map(LogRecord::getMessage).toList());
      }
      assertTrue(records.stream().filter(record -> record.getThrown() != null).count() <= 1);
      assertTrue(
          records.stream().filter(record -> record.getLevel() == Level.FINE).count() >= 4,
          "the repeats are counted, not logged in full");
    } finally {
      incidents.removeHandler(capture);
      incidents.setLevel(level);
    }
  }

  @Test
  void whenPathIsUnknownThen404NotA500() {
    assertEquals(404, new Http(base).get("/no/such/path").statusCode());
  }
}
