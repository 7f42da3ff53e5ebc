package dev.platform.identity.it;

import dev.platform.identity.web.Startup;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.glassfish.jersey.server.ResourceConfig;

/** Test-only: the real application plus one resource that fails unexpectedly. */
public class FailingStartup extends Startup {
  @Override
  protected void extend(ResourceConfig application) {
    application.register(new Failing());
  }

  /** Fails with an exception that carries internal detail the response must not show. */
  @Path("/test/fail")
  public static final class Failing {
    @GET
    public String fail() {
      throw new IllegalStateException("internal detail: connection to db-7 refused");
    }
  }
}
