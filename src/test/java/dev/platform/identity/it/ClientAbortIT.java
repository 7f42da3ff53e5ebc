package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 36 item 7: a client that sends half a body and closes the connection once made a SEVERE
 * incident with an 82-line stack trace, at will and anonymously. Now it is a 400 in the surface's
 * shape and no incident: no SEVERE line from any logger of the JVM the server runs in.
 */
@ExtendWith(ArquillianExtension.class)
class ClientAbortIT {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String HALF_ACCOUNT = "{\"name\":\"half\",\"organization_id\":\"ac";
  static final String SERVER_ERROR_MAPPER = "dev.platform.identity.web.ServerErrorMapper";

  /** Issue 35: the front door reads every body, so it is the one that sees a body cut short. */
  static final String BODY_READER = "dev.platform.identity.web.BodyReader";

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  /** Every record of the JVM from FINE up while a test runs: the server runs in this JVM. */
  static final class Records extends Handler {
    final List<LogRecord> records = new CopyOnWriteArrayList<>();

    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    List<String> severe() {
      return records.stream()
          .filter(record -> record.getLevel().intValue() >= Level.SEVERE.intValue())
          .map(record -> record.getLoggerName() + ": " + record.getMessage())
          .toList();
    }

    long abortsLogged() {
      return records.stream()
          .filter(
              record ->
                  SERVER_ERROR_MAPPER.equals(record.getLoggerName())
                      || BODY_READER.equals(record.getLoggerName()))
          .filter(record -> record.getMessage().contains("given up by the client"))
          .count();
    }
  }

  final Records records = new Records();
  final Logger root = Logger.getLogger("");
  final Logger mapper = Logger.getLogger(SERVER_ERROR_MAPPER);
  final Logger reader = Logger.getLogger(BODY_READER);
  Level mapperLevel;

  @BeforeEach
  void capture() {
    mapperLevel = mapper.getLevel();
    mapper.setLevel(Level.FINE);
    reader.setLevel(Level.FINE);
    root.addHandler(records);
  }

  @AfterEach
  void release() {
    root.removeHandler(records);
    mapper.setLevel(mapperLevel);
    reader.setLevel(mapperLevel);
  }

  RawHttp raw() {
    return new RawHttp(URI.create(base.toString()));
  }

  String adminToken() {
    return new Http(base).adminToken();
  }

  /** Waits, at most 20 s, until the server has logged {@code count} aborted requests. */
  void awaitAborts(long count) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (records.abortsLogged() < count && Instant.now().isBefore(deadline)) {
      Thread.sleep(50);
    }
    assertEquals(count, records.abortsLogged(), "the server handled each aborted request");
  }

  @Test
  void whenAnAdministratorsBodyEndsEarlyThen400InSpec72ShapeAndNoSevereLine() throws Exception {
    String token = adminToken();

    RawHttp.Answer answer =
        raw()
            .sendPart(
                "POST",
                "/admin/v1/service-accounts",
                HALF_ACCOUNT,
                HALF_ACCOUNT.length() * 2,
                true,
                "Content-Type: application/json",
                "Authorization: Bearer " + token);

    // The front door reads the body (issue 35): a body that ends early is cut there, with a 400 in
    // the surface's shape, or with no answer once the connection is gone; never an incident.
    if (answer != null) {
      assertEquals(400, answer.status(), answer.toString());
      JsonNode body = JSON.readTree(answer.body());
      assertFalse(body.get("success").asBoolean(true), answer.toString());
      assertTrue(body.get("message").isTextual(), answer.toString());
      assertFalse(answer.body().contains("incident"), answer.toString());
    }
    awaitAborts(1);
    assertEquals(List.of(), records.severe());
  }

  @Test
  void whenStrangersSendHalfBodiesAndCloseThenNoSevereLine() throws Exception {
    for (int i = 0; i < 5; i++) {
      assertEquals(
          null,
          raw()
              .sendPart(
                  "POST",
                  "/console/login",
                  "client_id=00000000-0000-4000-8000-0000000",
                  400,
                  false,
                  "Content-Type: application/x-www-form-urlencoded"));
    }
    RawHttp.Answer answer =
        raw()
            .sendPart(
                "POST",
                "/console/login",
                "client_id=0000",
                400,
                true,
                "Content-Type: application/x-www-form-urlencoded");

    if (answer != null) {
      assertEquals(400, answer.status(), answer.toString());
      assertFalse(answer.body().contains("incident"), answer.toString());
    }
    awaitAborts(6);
    assertEquals(List.of(), records.severe());
  }

  @Test
  void whenTheBodyIsWholeThenTheSameRequestIsServed() throws Exception {
    String whole = "{\"name\":\"whole\",\"organization_id\":\"acme\",\"scopes\":[\"kitchen:*\"]}";

    RawHttp.Answer answer =
        raw()
            .sendPart(
                "POST",
                "/admin/v1/service-accounts",
                whole,
                whole.getBytes(StandardCharsets.UTF_8).length,
                true,
                "Content-Type: application/json",
                "Authorization: Bearer " + adminToken());

    assertEquals(201, answer.status(), answer.toString());
    assertEquals(0, records.abortsLogged());
  }
}
