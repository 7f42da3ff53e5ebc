package dev.platform.identity.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Gives the embedded Tomcat of the Arquillian ITs a free port, chosen before Arquillian reads
 * {@code arquillian.xml}, unless the build names one with {@code -Dit.port=N}: builds side by side
 * then never meet on a fixed port. Registered in {@code META-INF/services}.
 */
public final class ItPort implements LauncherSessionListener {
  static final String PROPERTY = "it.port";

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    if (System.getProperty(PROPERTY, "").isBlank()) {
      try {
        System.setProperty(PROPERTY, Integer.toString(LauncherIT.freePort()));
      } catch (IOException e) {
        throw new UncheckedIOException("no free port for the ITs", e);
      }
    }
  }
}
