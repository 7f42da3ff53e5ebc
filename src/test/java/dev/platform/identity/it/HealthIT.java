package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArquillianExtension.class)
class HealthIT {
  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  @Test
  void whenAliveThenLiveAnswersUp() {
    HttpResponse<String> response = new Http(base).get("/health/live");

    assertEquals(200, response.statusCode());
    assertEquals("UP", Http.json(response).get("status").asText());
  }

  @Test
  void whenMigratedThenReadyAnswersUp() {
    HttpResponse<String> response = new Http(base).get("/health/ready");

    assertEquals(200, response.statusCode());
    assertEquals("UP", Http.json(response).get("database").asText());
    assertEquals(
        0, Http.json(response).get("signing_keys_under_previous_key_encryption_keys").asInt(-1));
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElseThrow());
  }
}
