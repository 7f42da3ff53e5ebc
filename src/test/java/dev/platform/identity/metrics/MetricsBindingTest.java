package dev.platform.identity.metrics;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.boundTo;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.http.CapturedResponse;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.TestTokens;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: {@code /metrics} admits a certificate-bound scraper token only with its certificate.
 */
class MetricsBindingTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final TestPki CA = TestPki.authority("Metrics CA");
  private static final X509Certificate CLIENT = CA.client("CN=scraper").certificate();
  private static final X509Certificate OTHER = CA.client("CN=scraper").certificate();
  private static final String BOUND =
      "Bearer "
          + TestTokens.signed(
              boundTo(serviceAccount().claim("scopes", List.of(MetricsServlet.SCOPE)), CLIENT),
              KEYS.getPrivate());

  private final Database database = TestDatabases.h2();
  private final MetricsServlet servlet = servlet();

  @AfterEach
  void close() {
    database.close();
  }

  private MetricsServlet servlet() {
    ServiceAccounts accounts = new ServiceAccounts(database);
    accounts.add(
        ServiceAccount.create(
            UUID.fromString(CLIENT_ID),
            TestAccounts.catalogReader(),
            TestAccounts.digest("digest"),
            NOW.minus(Duration.ofDays(1))));
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(CLOCK)
            .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
            .build();
    return new MetricsServlet(
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        verifier,
        accounts,
        new Revocations(ISSUER, database.dataSource(), Duration.ofHours(24), CLOCK));
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
      assertEquals("Bearer error=\"invalid_token\"", response.headers().get("WWW-Authenticate"));
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
