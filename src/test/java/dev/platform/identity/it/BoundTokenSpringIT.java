package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.it.LauncherIT.Launched;
import dev.platform.identity.launcher.AnyClientCertificate;
import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.CertificateThumbprint;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.FilterChainProxy;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.filter.RequestContextFilter;

/**
 * Issue 39 with a verifier we did not write: Spring Security's resource server refuses our
 * certificate-bound tokens (RFC 8705 §3, {@code cnf.x5t#S256}) without their certificate.
 *
 * <p>Since Spring Security 6.3 (7.1.2 here), {@code JwtValidators.createDefault()}, which {@code
 * NimbusJwtDecoder}'s builders apply, and {@code createDefaultWithIssuer} and {@code
 * createDefaultWithValidators} include the package-private {@code
 * X509CertificateThumbprintValidator}. A token without {@code cnf.x5t#S256} passes it; a token with
 * one passes only if the SHA-256 thumbprint of the certificate it finds equals it. It finds the
 * certificate in {@code RequestContextHolder}, as the request attribute {@code
 * jakarta.servlet.request.X509Certificate} (the first of the chain), so the request must be bound
 * to the thread: Spring MVC's {@code DispatcherServlet} does that only after the security filters
 * ran, so a resource server needs a {@code RequestContextFilter} before them (Spring Boot registers
 * one, ordered before its security filter chain). Nothing else to turn on, and nothing to turn off
 * either: any decoder made with Spring's default validators checks the binding.
 *
 * <p>Here, against the launcher over HTTPS: a self_signed_tls_client_auth client's token by its
 * certificate; a resource server in this JVM, an embedded Tomcat asking for a client certificate as
 * the launcher does, with Spring Security's own filters ({@code RequestContextFilter}, then a
 * {@code FilterChainProxy} with a {@code BearerTokenAuthenticationFilter} over a {@code
 * JwtAuthenticationProvider} and a {@code NimbusJwtDecoder} found by our issuer's metadata). It
 * answers the token's bearer with the token's subject, or Spring's 401.
 */
class BoundTokenSpringIT {
  static final TestPki PKI = SelfSignedClientIT.PKI;
  static final TestPki.Issued CLIENT = SelfSignedClientIT.CLIENT;
  static final TestPki.Issued OTHER = SelfSignedClientIT.OTHER;

  @TempDir Path data;
  @TempDir Path secrets;
  @TempDir Path tomcatBase;

  String[] tls() throws Exception {
    char[] storePassword = "store-pw".toCharArray();
    Path store = secrets.resolve("server.p12");
    try (OutputStream out = Files.newOutputStream(store)) {
      PKI.server().keyStore("server", storePassword).store(out, storePassword);
    }
    Path password = secrets.resolve("password");
    Files.writeString(password, "store-pw\n");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    return new String[] {
      "--data",
      data.toString(),
      "--tls-keystore",
      store.toString(),
      "--tls-keystore-password-file",
      password.toString()
    };
  }

  /** The resource server's one resource: who the authenticated bearer is. */
  static final class WhoAmI extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
      if (authentication == null || !authentication.isAuthenticated()) {
        response.sendError(403, "no authentication");
        return;
      }
      response.setContentType("text/plain");
      response.getWriter().print(authentication.getName());
    }
  }

  /** As {@code ClientCertificates.https}: a certificate asked for, of any issuer, not required. */
  static Connector https(KeyStore keyStore, String password) {
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    SSLHostConfig config = new SSLHostConfig();
    config.setProtocols("TLSv1.2+TLSv1.3");
    config.setCertificateVerification("optional_no_ca");
    config.setTrustManagerClassName(AnyClientCertificate.class.getName());
    SSLHostConfigCertificate certificate =
        new SSLHostConfigCertificate(config, SSLHostConfigCertificate.Type.UNDEFINED);
    certificate.setCertificateKeystore(keyStore);
    certificate.setCertificateKeystorePassword(password);
    config.addCertificate(certificate);
    connector.setProperty("SSLEnabled", "true");
    connector.setScheme("https");
    connector.setSecure(true);
    connector.addSslHostConfig(config);
    return connector;
  }

  static void filter(Context context, String name, Filter filter) {
    FilterDef definition = new FilterDef();
    definition.setFilterName(name);
    definition.setFilter(filter);
    context.addFilterDef(definition);
    FilterMap map = new FilterMap();
    map.setFilterName(name);
    map.addURLPatternDecoded("/*");
    context.addFilterMap(map);
  }

  /** Spring's filters in front of {@link WhoAmI}, in the order Spring Boot gives them. */
  static Tomcat resourceServer(Path base, JwtDecoder decoder) throws Exception {
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    tomcat.setConnector(https(PKI.server().keyStore("server", "rs-pw".toCharArray()), "rs-pw"));
    Context context = tomcat.addContext("", null);
    filter(context, "requestContext", new RequestContextFilter());
    filter(
        context,
        "springSecurityFilterChain",
        new FilterChainProxy(
            new DefaultSecurityFilterChain(
                AnyRequestMatcher.INSTANCE,
                new BearerTokenAuthenticationFilter(
                    new ProviderManager(new JwtAuthenticationProvider(decoder))))));
    Tomcat.addServlet(context, "whoami", new WhoAmI());
    context.addServletMappingDecoded("/*", "whoami");
    tomcat.start();
    return tomcat;
  }

  static HttpResponse<String> call(int port, TestPki.Issued certificate, String token)
      throws Exception {
    return SelfSignedClientIT.http(certificate)
        .send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/whoami"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** Spring's answer to a refused token: 401 and its RFC 6750 challenge. */
  static void assertRefused(HttpResponse<String> response, String description) {
    assertEquals(401, response.statusCode(), response.body());
    String challenge = response.headers().firstValue("WWW-Authenticate").orElse("");
    assertTrue(challenge.startsWith("Bearer "), challenge);
    assertTrue(challenge.contains("error=\"invalid_token\""), challenge);
    assertTrue(challenge.contains(description), challenge);
  }

  static String accessToken(HttpResponse<String> response) throws Exception {
    assertEquals(200, response.statusCode(), response.body());
    return SelfSignedClientIT.JSON.readTree(response.body()).path("access_token").asText();
  }

  static JsonNode claims(String token) throws Exception {
    return SelfSignedClientIT.JSON.readTree(
        java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]));
  }

  @Test
  void whenSpringsResourceServerGetsABoundTokenThenItAcceptsItOnlyWithItsCertificate()
      throws Exception {
    try (Launched launched = new Launched(LauncherIT.freePort(), tls())) {
      assertTrue(launched.awaitListening(), launched.output());
      Matcher adminId = LauncherIT.CLIENT_ID.matcher(launched.output());
      Matcher adminSecret = LauncherIT.SECRET.matcher(launched.output());
      assertTrue(adminId.find() && adminSecret.find(), launched.output());
      URI base = URI.create("https://127.0.0.1:" + launched.port);

      String boundId = SelfSignedClientIT.register(base, adminId.group(1), adminSecret.group(1));
      String bound =
          accessToken(
              SelfSignedClientIT.token(
                  base, CLIENT, "grant_type=client_credentials&client_id=" + boundId));
      assertEquals(
          CertificateThumbprint.of(CLIENT.certificate()),
          claims(bound).path("cnf").path("x5t#S256").asText());

      HttpResponse<String> created =
          SelfSignedClientIT.post(
              SelfSignedClientIT.http(null),
              base.resolve("/admin/v1/service-accounts"),
              "application/json",
              SelfSignedClientIT.adminBearer,
              "{\"name\":\"secret\",\"organization_id\":\"org-t\",\"scopes\":[\"marketing:*\"]}");
      assertEquals(201, created.statusCode(), created.body());
      JsonNode secretAccount = SelfSignedClientIT.JSON.readTree(created.body());
      String unboundId = secretAccount.path("client_id").asText();
      String unbound =
          accessToken(
              SelfSignedClientIT.token(
                  base,
                  null,
                  "grant_type=client_credentials&client_id="
                      + unboundId
                      + "&client_secret="
                      + secretAccount.path("client_secret").asText()));
      assertTrue(claims(unbound).path("cnf").isMissingNode());

      // As Spring Boot's issuer-uri makes it: metadata, then jwks_uri, then the default validators
      // with the issuer's. The RestTemplate only trusts the test CA.
      NimbusJwtDecoder decoder =
          NimbusJwtDecoder.withIssuerLocation(base.toString())
              .restOperations(
                  new RestTemplate(new JdkClientHttpRequestFactory(SelfSignedClientIT.http(null))))
              .build();
      decoder.setJwtValidator(JwtValidators.createDefaultWithIssuer(base.toString()));

      // Outside any request: no certificate to find, so Spring's validator refuses the bound token.
      JwtValidationException outside =
          assertThrows(JwtValidationException.class, () -> decoder.decode(bound));
      assertEquals(
          List.of("invalid_token: Unable to obtain X509Certificate from current request."),
          outside.getErrors().stream()
              .map(error -> error.getErrorCode() + ": " + error.getDescription())
              .toList());
      assertEquals(unboundId, decoder.decode(unbound).getSubject());

      // An embedded Tomcat sets catalina.base and catalina.home for the whole JVM, where the ITs'
      // Arquillian Tomcat reads its conf/context.xml (the identity/* settings) for each later
      // deployment: left changed, every IT after this one deployed without its settings (seen in
      // CI: "identity/tokenLifetime is not set", then 404s). They are put back when it stops.
      java.util.Properties before = (java.util.Properties) System.getProperties().clone();
      Tomcat tomcat = resourceServer(tomcatBase, decoder);
      try {
        int port = tomcat.getConnector().getLocalPort();
        HttpResponse<String> withIt = call(port, CLIENT, bound);
        assertEquals(200, withIt.statusCode(), withIt.body());
        assertEquals(boundId, withIt.body());

        assertRefused(
            call(port, null, bound),
            "error_description=\"An error occurred while attempting to decode the Jwt: "
                + "Unable to obtain X509Certificate from current request.\"");
        assertRefused(
            call(port, OTHER, bound),
            "error_description=\"An error occurred while attempting to decode the Jwt: "
                + "Invalid SHA-256 Thumbprint for X509Certificate.\"");

        HttpResponse<String> unboundWithout = call(port, null, unbound);
        assertEquals(200, unboundWithout.statusCode(), unboundWithout.body());
        assertEquals(unboundId, unboundWithout.body());
        HttpResponse<String> unboundWith = call(port, OTHER, unbound);
        assertEquals(200, unboundWith.statusCode(), unboundWith.body());
        assertEquals(unboundId, unboundWith.body());

        // Checked on every request: refused again after it was accepted.
        assertRefused(call(port, null, bound), "Unable to obtain X509Certificate");
      } finally {
        tomcat.stop();
        tomcat.destroy();
        restore(before);
      }
    }
  }

  /** The JVM's system properties as they were, none added, none changed. */
  static void restore(java.util.Properties before) {
    for (String name : System.getProperties().stringPropertyNames()) {
      if (!before.containsKey(name)) {
        System.clearProperty(name);
      }
    }
    for (String name : before.stringPropertyNames()) {
      System.setProperty(name, before.getProperty(name));
    }
  }
}
