package dev.platform.identity.admin;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.tls.BoundCaller;
import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.TestTokens;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.lang.reflect.Proxy;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: the administration API admits a certificate-bound token (RFC 8705) only with the
 * certificate of the request's connection, which Jersey shows as the request property of the
 * servlet attribute. The request is faked; the account store is H2.
 */
class AdminAuthBindingTest {
  private static final BoundCaller CALLER = new BoundCaller("CN=admin", AdminAuth.ADMIN);
  private static final String BOUND = CALLER.header();
  private static final X509Certificate CLIENT = CALLER.certificate();
  private static final X509Certificate OTHER = CALLER.other();

  private final Database database = TestDatabases.h2();
  private final AdminAuth auth =
      new AdminAuth(
          java.net.URI.create(ISSUER),
          CALLER.verifier(),
          CALLER.accounts(database),
          new AuditLog(CLOCK),
          List.of(),
          new Revocations(ISSUER, database.dataSource(), Duration.ofHours(24), CLOCK));

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void whenABoundAdminTokenComesWithItsCertificateThenTheCallerIsAdmitted() {
    Map<String, Object> properties = properties(CLIENT);

    auth.admit(request(properties), BOUND, List.of(AdminAuth.ADMIN));

    assertEquals(CLIENT_ID, ((AdminAuth.Caller) caller(properties)).token().clientId());
  }

  @Test
  void whenABoundAdminTokenComesWithoutOrWithAnotherCertificateThen401InvalidToken() {
    for (X509Certificate presented : new X509Certificate[] {null, OTHER}) {
      ApiError refused =
          assertThrows(
              ApiError.class,
              () -> auth.admit(request(properties(presented)), BOUND, List.of(AdminAuth.ADMIN)));

      assertEquals(401, refused.status());
      assertEquals(
          Optional.of("Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE),
          refused.challenge());
    }
  }

  @Test
  void whenTheCertificateIsRequestedThenItIsTheFirstOfThePropertysChain() {
    assertSame(CLIENT, AdminAuth.certificate(request(properties(CLIENT))));
    assertEquals(null, AdminAuth.certificate(request(properties(null))));
  }

  private static Object caller(Map<String, Object> properties) {
    return properties.get(AdminAuth.class.getName() + ".caller");
  }

  private static Map<String, Object> properties(X509Certificate certificate) {
    Map<String, Object> properties = new HashMap<>();
    if (certificate != null) {
      properties.put(BearerCheck.CERTIFICATE_ATTRIBUTE, CALLER.chain(certificate));
    }
    return properties;
  }

  private static ContainerRequestContext request(Map<String, Object> properties) {
    ExtendedUriInfo uri =
        (ExtendedUriInfo)
            Proxy.newProxyInstance(
                AdminAuthBindingTest.class.getClassLoader(),
                new Class<?>[] {ExtendedUriInfo.class},
                (proxy, method, args) ->
                    method.getName().equals("getPath") ? "admin/v1/service-accounts" : null);
    return (ContainerRequestContext)
        Proxy.newProxyInstance(
            AdminAuthBindingTest.class.getClassLoader(),
            new Class<?>[] {ContainerRequestContext.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getUriInfo" -> uri;
                  case "getMethod" -> "GET";
                  case "getProperty" -> properties.get((String) args[0]);
                  case "setProperty" -> properties.put((String) args[0], args[1]);
                  default -> null;
                });
  }
}
