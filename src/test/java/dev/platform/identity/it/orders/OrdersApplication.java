package dev.platform.identity.it.orders;

import dev.platform.identity.testkit.LocalIdentity;
import dev.platform.identity.verify.jaxrs.BearerTokenFilter;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * The API's JAX-RS application, protected by the libraries' filter. In production its verifier
 * would read the issuer's key set ({@code RemotePublicKeys}); deployed by Arquillian into the
 * embedded Tomcat of the test's own JVM, it takes the kit's verifier for the service the test runs.
 */
public class OrdersApplication extends ResourceConfig {
  public OrdersApplication() {
    register(OrdersResource.class);
    register(new BearerTokenFilter(LocalIdentity.shared().verifier()));
  }
}
