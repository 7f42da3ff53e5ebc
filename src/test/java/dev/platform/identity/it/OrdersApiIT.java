package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.it.orders.OrdersResource;
import dev.platform.identity.testkit.Account;
import dev.platform.identity.testkit.IdentityService;
import dev.platform.identity.testkit.LocalIdentity;
import dev.platform.identity.testkit.TestAccount;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 43's example (docs/testing-with-identity.md): a JAX-RS API protected by the libraries'
 * filter, deployed by Arquillian on embedded Tomcat, tested with real tokens of the kit's service:
 * a token with the scope passes, one without it is 403, an expired one 401, and one signed by a key
 * the service has since revoked 401.
 */
@IdentityService
@ExtendWith(ArquillianExtension.class)
class OrdersApiIT {
  static final String READ = "orders:orders.read";

  static final String WEB_XML = webXml("dev.platform.identity.it.orders.OrdersApplication");

  /** The API's web.xml: Jersey's servlet on {@code /api/*}, running {@code application}. */
  static String webXml(String application) {
    return """
      <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
        <servlet>
          <servlet-name>orders</servlet-name>
          <servlet-class>org.glassfish.jersey.servlet.ServletContainer</servlet-class>
          <init-param>
            <param-name>jakarta.ws.rs.Application</param-name>
            <param-value>%s</param-value>
          </init-param>
          <load-on-startup>1</load-on-startup>
        </servlet>
        <servlet-mapping>
          <servlet-name>orders</servlet-name>
          <url-pattern>/api/*</url-pattern>
        </servlet-mapping>
      </web-app>
      """
        .formatted(application);
  }

  final HttpClient http = HttpClient.newHttpClient();

  @Deployment(testable = false)
  static WebArchive deployment() {
    return ShrinkWrap.create(WebArchive.class, "orders.war")
        .addPackage(OrdersResource.class.getPackage())
        .setWebXML(new StringAsset(WEB_XML));
  }

  @ArquillianResource URL base;

  @Test
  void whenTheTokenHasTheScopeThen200(
      LocalIdentity identity, @Account(scopes = READ) TestAccount reader) throws Exception {
    assertEquals(200, orders(identity.token(reader)));
  }

  @Test
  void whenTheTokenLacksTheScopeThen403(
      LocalIdentity identity, @Account(scopes = "orders:orders.write") TestAccount writer)
      throws Exception {
    assertEquals(403, orders(identity.token(writer)));
  }

  @Test
  void whenTheTokenExpiredThen401(
      LocalIdentity identity, @Account(scopes = READ) TestAccount reader) throws Exception {
    assertEquals(401, orders(identity.forge(reader).expired().sign()));
  }

  @Test
  void whenItsKeyIsRevokedThen401(
      LocalIdentity identity, @Account(scopes = READ) TestAccount reader) throws Exception {
    String token = identity.token(reader);
    String kid = identity.currentKid();
    assertEquals(200, orders(token));

    identity.rotateKey();
    identity.revokeKey(kid);

    assertEquals(401, orders(token));
    assertEquals(200, orders(identity.token(reader)));
  }

  private int orders(String token) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "api/orders"))
            .header("Authorization", "Bearer " + token)
            .build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
