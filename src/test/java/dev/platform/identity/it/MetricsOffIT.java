package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URL;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Issue 20: {@code identity/metricsAccess} = {@code off}: /metrics is not there, 404. */
@ExtendWith(ArquillianExtension.class)
class MetricsOffIT {
  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war(
        "metrics-off-" + UUID.randomUUID(), Map.of("identity/metricsAccess", "off"));
  }

  @ArquillianResource URL base;

  @Test
  void whenOffThen404AndNoMetric() {
    for (String path : new String[] {"/metrics", "/metrics/", "/Metrics"}) {
      HttpResponse<String> response = new Http(base).get(path);

      assertEquals(404, response.statusCode(), path + ": " + response.body());
      assertFalse(response.body().contains("jvm_"), response.body());
      assertFalse(response.body().contains("identity_token"), response.body());
    }
  }
}
