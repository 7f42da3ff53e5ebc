package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.it.orders.OrdersResource;
import dev.platform.identity.testkit.IdentityDeployment;
import dev.platform.identity.testkit.LocalIdentity;
import dev.platform.identity.testkit.TestAccount;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 43's second way (docs/testing-with-identity.md "The WAR in your own container"): the
 * identity service's WAR deployed by the test's own Arquillian deployment into its embedded Tomcat,
 * beside the API it protects, in place of the kit's child process: the same four answers as {@link
 * OrdersApiIT}, from a service that runs in the test's JVM.
 */
@ExtendWith(ArquillianExtension.class)
public class OrdersApiDeployedIT {
  static final String READ = "orders:orders.read";

  /** The deployment, for the container of arquillian.xml (127.0.0.1, the build's it.port). */
  public static final IdentityDeployment IDENTITY =
      IdentityDeployment.at("http://127.0.0.1:" + System.getProperty("it.port", "18180"));

  final HttpClient http = HttpClient.newHttpClient();

  @Deployment(name = "identity", testable = false, order = 1)
  static WebArchive identity() {
    return ShrinkWrap.createFromZipFile(WebArchive.class, IDENTITY.war());
  }

  @Deployment(name = "orders", testable = false, order = 2)
  static WebArchive orders() {
    return ShrinkWrap.create(WebArchive.class, "orders.war")
        .addPackage(OrdersResource.class.getPackage())
        .setWebXML(
            new StringAsset(
                OrdersApiIT.webXml("dev.platform.identity.it.orders.DeployedOrdersApplication")));
  }

  @ArquillianResource
  @OperateOnDeployment("orders")
  URL base;

  @Test
  void whenTheTokenHasTheScopeThen200AndWithoutIt403() throws Exception {
    LocalIdentity identity = IDENTITY.identity();
    TestAccount reader = identity.account("reader").scopes(READ).create();
    TestAccount writer = identity.account("writer").scopes("orders:orders.write").create();

    assertEquals(IDENTITY.issuer(), identity.issuer());
    assertEquals(200, orders(identity.token(reader)));
    assertEquals(403, orders(identity.token(writer)));
  }

  @Test
  void whenTheTokenExpiredThen401() throws Exception {
    LocalIdentity identity = IDENTITY.identity();
    TestAccount reader = identity.account("expiring").scopes(READ).create();

    assertEquals(401, orders(identity.forge(reader).expired().sign()));
  }

  @Test
  void whenItsKeyIsRevokedThen401() throws Exception {
    LocalIdentity identity = IDENTITY.identity();
    TestAccount reader = identity.account("revoked").scopes(READ).create();
    String token = identity.token(reader);
    String kid = identity.currentKid();
    assertEquals(200, orders(token));

    identity.rotateKey();
    identity.revokeKey(kid);

    assertEquals(401, orders(token));
    assertEquals(200, orders(identity.token(reader)));
  }

  @Test
  void whenTheServiceRunsInTheTestsJvmThenOnLoopbackOnly() {
    for (String address : IDENTITY.identity().listeningAddresses()) {
      assertTrue(
          address.startsWith("0100007F:")
              || address.startsWith("0000000000000000FFFF00000100007F:"),
          "not 127.0.0.1: " + address);
    }
  }

  @Test
  void whenTheBaseUrlIsNotLoopbackOrHasAPathThenTheDeploymentIsRefused() {
    for (String base :
        new String[] {
          "http://10.0.0.5:8080",
          "http://0.0.0.0:8080",
          "https://127.0.0.1:8443",
          "http://127.0.0.1",
          "http://127.0.0.1:8080/identity",
          "http://127.0.0.1:8080/",
          "http://user@127.0.0.1:8080",
          "http://127.0.0.1:8080?x=1",
          "http://example.com:8080",
          "http://127.0.0.1.example.com:8080",
          "not a url at all"
        }) {
      assertThrows(IllegalArgumentException.class, () -> IdentityDeployment.at(base), base);
    }
  }

  private int orders(String token) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "api/orders"))
            .header("Authorization", "Bearer " + token)
            .build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
