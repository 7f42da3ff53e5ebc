package dev.platform.identity.it;

import dev.platform.identity.web.Startup;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.internal.spi.AutoDiscoverable;

/**
 * Test-only: the real application plus one resource and one servlet that fail unexpectedly (the
 * servlet's exception reaches the container, as one escaping a filter would).
 */
public class FailingStartup extends Startup {
  @Override
  public void contextInitialized(ServletContextEvent event) {
    super.contextInitialized(event);
    event
        .getServletContext()
        .addServlet("failing", new FailingServlet())
        .addMapping("/test/servlet-fail");
  }

  /**
   * Adds {@link Failing} to the real Jersey application: Jersey finds this through the service file
   * that {@link ServerErrorIT} puts in its WAR alone, so the service needs no seam for it.
   */
  @ConstrainedTo(RuntimeType.SERVER)
  public static final class FailingDiscovery implements AutoDiscoverable {
    @Override
    public void configure(FeatureContext context) {
      context.register(new Failing());
    }
  }

  /** Fails with an exception that carries internal detail the response must not show. */
  @Path("/test/fail")
  public static final class Failing {
    @GET
    public String fail() {
      throw new IllegalStateException("internal detail: connection to db-7 refused");
    }
  }

  /** Throws past Jersey's mappers, straight to the container. */
  public static final class FailingServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) {
      throw new IllegalStateException("internal detail: connection to db-7 refused");
    }
  }
}
