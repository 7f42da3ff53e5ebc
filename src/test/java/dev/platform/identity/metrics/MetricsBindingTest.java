package dev.platform.identity.metrics;

import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.http.CapturedResponse;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.tls.BoundCaller;
import dev.platform.identity.verify.BearerCheck;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: {@code /metrics} admits a certificate-bound scraper token only with its certificate.
 */
class MetricsBindingTest {
  private static final BoundCaller CALLER = new BoundCaller("CN=scraper", MetricsServlet.SCOPE);
  private static final String BOUND = CALLER.header();
  private static final X509Certificate CLIENT = CALLER.certificate();
  private static final X509Certificate OTHER = CALLER.other();

  private final Database database = TestDatabases.h2();
  private final MetricsServlet servlet =
      new MetricsServlet(
          new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
          CALLER.verifier(),
          CALLER.accounts(database),
          new Revocations(ISSUER, database.dataSource(), Duration.ofHours(24), CLOCK),
          java.net.URI.create(ISSUER));

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void whenTheBoundScraperTokenComesWithItsCertificateThenTheMetricsAreServed() throws IOException {
    assertEquals(200, scrape(CLIENT).status());
  }

  @Test
  void whenItComesWithoutOrWithAnotherCertificateThen401InvalidToken() throws IOException {
    for (X509Certificate presented : new X509Certificate[] {null, OTHER}) {
      CapturedResponse response = scrape(presented);

      assertEquals(401, response.status());
      assertEquals(
          "Bearer error=\"invalid_token\", DPoP algs=\"ES256 RS256 PS256\"",
          response.headers().get("WWW-Authenticate"));
    }
  }

  private CapturedResponse scrape(X509Certificate certificate) throws IOException {
    CapturedResponse response = new CapturedResponse();
    HttpServletRequest request =
        (HttpServletRequest)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class},
                (proxy, method, args) ->
                    switch (method.getName()) {
                      case "getHeader" -> "Authorization".equals(args[0]) ? BOUND : null;
                      case "getHeaders" ->
                          java.util.Collections.enumeration(
                              "Authorization".equals(args[0])
                                  ? java.util.List.of(BOUND)
                                  : java.util.List.<String>of());
                      case "getMethod" -> "GET";
                      case "getAttribute" ->
                          BearerCheck.CERTIFICATE_ATTRIBUTE.equals(args[0]) && certificate != null
                              ? new X509Certificate[] {certificate}
                              : null;
                      default -> null;
                    });
    servlet.service(request, response.proxy());
    return response;
  }
}
