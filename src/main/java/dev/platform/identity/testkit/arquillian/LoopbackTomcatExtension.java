package dev.platform.identity.testkit.arquillian;

import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers {@link BindAddressObserver} where Arquillian's embedded Tomcat 10 adapter is on the
 * class path, and nothing elsewhere: the kit's jar names this extension in {@code
 * META-INF/services}, so every Arquillian run of a project that has the kit loads it.
 */
public final class LoopbackTomcatExtension implements LoadableExtension {
  static final String CONTAINER =
      "org.jboss.arquillian.container.tomcat.embedded.Tomcat10EmbeddedContainer";

  @Override
  public void register(ExtensionBuilder builder) {
    try {
      Class.forName(CONTAINER, false, LoopbackTomcatExtension.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError otherContainer) {
      return;
    }
    builder.observer(BindAddressObserver.class);
  }
}
