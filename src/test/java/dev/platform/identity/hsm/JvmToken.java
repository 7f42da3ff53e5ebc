package dev.platform.identity.hsm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.stream.Stream;

/**
 * The one SoftHSM2 token of this JVM's failsafe run, shared by every IT that opens a token here.
 * SoftHSM reads its token directory once, when the module is first initialised in the process, so a
 * token made after that (by a second IT's own {@code softhsm2-util}) is invisible to this JVM, and
 * an IT that deleted the directory again would take the first IT's token away. So the directory
 * {@code SOFTHSM2_CONF} names is made anew once per JVM, here.
 */
public final class JvmToken {
  private static SoftHsm.Token token;

  private JvmToken() {}

  /** The token labelled {@code identity-jvm}, made on the first call in this JVM. */
  public static synchronized SoftHsm.Token get() throws IOException, InterruptedException {
    if (token == null) {
      Path conf = Path.of(System.getenv().getOrDefault("SOFTHSM2_CONF", ""));
      if (!conf.toString().endsWith("softhsm2.conf")) {
        throw new IllegalStateException(
            "failsafe must set SOFTHSM2_CONF for this JVM, not '" + conf + "'");
      }
      Path folder = conf.toAbsolutePath().getParent();
      deleteTree(folder.resolve("tokens"));
      token = SoftHsm.in(folder).initToken("identity-jvm");
    }
    return token;
  }

  /** The {@code SOFTHSM2_CONF} of this JVM, for a child process that opens the same token. */
  public static Path conf() {
    return Path.of(System.getenv("SOFTHSM2_CONF")).toAbsolutePath();
  }

  private static void deleteTree(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Collections.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
