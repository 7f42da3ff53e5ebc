package dev.platform.identity.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * A service the kit configured and can reach: a child process of its own ({@link ServiceProcess}),
 * or the WAR deployed into the test's own container ({@link IdentityDeployment}).
 */
interface RunningService extends AutoCloseable {
  /** {@code http://127.0.0.1:PORT}: the {@code iss} of its tokens. */
  URI issuer();

  /**
   * Its H2 database, which the kit reads its signing keys from, as the kit's connections open it.
   */
  String jdbcUrl();

  /** The WAR that runs, whose {@code SigningKeyRow} opens those keys. */
  Path war() throws IOException;

  /** The process id that holds its sockets. */
  long pid();

  @Override
  void close();
}
