package dev.platform.identity.it.orders;

import dev.platform.identity.it.OrdersApiDeployedIT;
import dev.platform.identity.verify.jaxrs.BearerTokenFilter;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * {@link OrdersApplication} for the identity service that Arquillian deployed beside it: its
 * verifier is the kit's for that deployment, which Arquillian deployed first.
 */
public class DeployedOrdersApplication extends ResourceConfig {
  public DeployedOrdersApplication() {
    register(OrdersResource.class);
    register(new BearerTokenFilter(OrdersApiDeployedIT.IDENTITY.identity().verifier()));
  }
}
