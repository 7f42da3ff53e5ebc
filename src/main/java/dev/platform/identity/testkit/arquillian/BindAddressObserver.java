package dev.platform.identity.testkit.arquillian;

import java.lang.reflect.Field;
import org.apache.catalina.Service;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.event.container.AfterStart;
import org.jboss.arquillian.core.api.annotation.Observes;

/**
 * Makes Arquillian's embedded Tomcat listen where its {@code bindAddress} says. The adapter
 * (arquillian-tomcat-embedded-10 1.2.0) gives that address to Tomcat as the host's name only, and
 * its connector listens on every interface: a test's services, this identity service among them,
 * were reachable from the network. Once the container has started, before any deployment, this
 * replaces the connector with one on the same port bound to that address; the port is free for the
 * moment between the two, and nothing is deployed yet. A container whose fields this cannot read
 * fails to start rather than running exposed.
 */
public final class BindAddressObserver {
  public void bind(@Observes AfterStart started) throws LifecycleException {
    DeployableContainer<?> container = started.getDeployableContainer();
    if (!container.getClass().getName().equals(LoopbackTomcatExtension.CONTAINER)) {
      return;
    }
    try {
      Tomcat tomcat = (Tomcat) field(container, "tomcat");
      Object configuration = field(container, "configuration");
      String address =
          (String) configuration.getClass().getMethod("getBindAddress").invoke(configuration);
      Connector exposed = tomcat.getConnector();
      Object bound = exposed.getProperty("address");
      if (address == null || address.isBlank() || bound != null) {
        return;
      }
      Connector connector = new Connector(exposed.getProtocolHandlerClassName());
      connector.setPort(exposed.getPort());
      connector.setProperty("address", address);
      Service service = tomcat.getService();
      service.removeConnector(exposed);
      exposed.destroy();
      service.addConnector(connector);
      tomcat.setConnector(connector);
    } catch (ReflectiveOperationException | org.apache.catalina.LifecycleException e) {
      throw new LifecycleException(
          "Arquillian's embedded Tomcat cannot be bound to its bindAddress", e);
    }
  }

  private static Object field(Object container, String name) throws ReflectiveOperationException {
    Field field = container.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(container);
  }
}
