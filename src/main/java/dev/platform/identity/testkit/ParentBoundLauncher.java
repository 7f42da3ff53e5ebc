package dev.platform.identity.testkit;

import dev.platform.identity.launcher.Launcher;
import java.io.IOException;

/**
 * The main class of the kit's child process: the launcher, stopped (through its shutdown hook) as
 * soon as the test JVM that started it ends, however it ends. The child's standard input is a pipe
 * from that JVM, which the operating system closes when it dies, even by {@code kill -9}: no
 * service outlives its test run.
 */
public final class ParentBoundLauncher {
  private ParentBoundLauncher() {}

  public static void main(String[] args) throws Exception {
    Thread watch = new Thread(ParentBoundLauncher::exitAtEndOfInput, "identity-testkit-parent");
    watch.setDaemon(true);
    watch.start();
    Launcher.main(args);
  }

  private static void exitAtEndOfInput() {
    try {
      while (System.in.read() != -1) {
        // The kit writes nothing; only the end counts.
      }
    } catch (IOException e) {
      // The pipe broke: its other end is gone too.
    }
    System.exit(0);
  }
}
