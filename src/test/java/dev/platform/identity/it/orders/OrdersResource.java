package dev.platform.identity.it.orders;

import dev.platform.identity.verify.jaxrs.RequireScopes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** A team's API, as small as it gets: its orders, for tokens with {@code orders:orders.read}. */
@Path("orders")
public class OrdersResource {
  @GET
  @Produces(MediaType.APPLICATION_JSON)
  @RequireScopes("orders:orders.read")
  public String list() {
    return "[]";
  }
}
