package dev.platform.identity.launcher;

import java.util.logging.LogManager;

/**
 * java.util.logging's manager in the launcher. The JDK's {@code LogManager} resets logging from a
 * shutdown hook of its own, which runs beside the launcher's hook that stops Tomcat: the console
 * handler was closed before Tomcat and the service had said how they stopped. Once the JVM shuts
 * down this manager leaves the handlers open (the console handler flushes every line), so the stop
 * is logged to its last line; every other reset is the JDK's.
 *
 * <p>{@link Launcher} names it in {@code java.util.logging.manager} before the first logger; by a
 * string, since touching this class would initialize {@code LogManager} first.
 */
public final class LauncherLogManager extends LogManager {

  @Override
  public void reset() {
    if (!shuttingDown()) {
      super.reset();
    }
  }

  /** Whether the JVM runs its shutdown hooks: it then refuses new ones (the only public sign). */
  private static boolean shuttingDown() {
    Thread probe = new Thread(() -> {});
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }
}
