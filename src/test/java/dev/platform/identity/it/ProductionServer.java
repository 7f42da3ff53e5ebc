package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.db.FreshPostgres;
import java.io.IOException;
import java.io.Reader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A real server distribution run with a production example: a fresh PostgreSQL database, a free
 * loopback port, the test secrets, then its {@link ServerProcess}; closed, it stops the process,
 * prints how long it took to be ready and to stop, and drops the database.
 */
final class ProductionServer implements AutoCloseable {
  static final String KEK = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
  static final String PEPPER = "ZXhhbXBsZS1wZXBwZXItZm9yLXRlc3RzLW9ubHktMzJieXRlcw==";

  private final String name;
  private final Path distribution;
  private final FreshPostgres database;
  private final int port;
  private ServerProcess process;
  private Duration ready;
  private Path directory;

  private ProductionServer(String name, Path distribution, FreshPostgres database, int port) {
    this.name = name;
    this.distribution = distribution;
    this.database = database;
    this.port = port;
  }

  /** A fresh database named from {@code databasePrefix} and a free port; nothing started yet. */
  static ProductionServer prepare(String name, Path distribution, String databasePrefix)
      throws IOException, SQLException {
    FreshPostgres database = FreshPostgres.create(databasePrefix);
    try (ServerSocket socket = new ServerSocket(0)) {
      return new ProductionServer(name, distribution, database, socket.getLocalPort());
    }
  }

  /** Runs each later start in {@code folder}, as a doc's {@code cd FOLDER &&} does. */
  ProductionServer runningIn(Path folder) {
    directory = folder;
    return this;
  }

  FreshPostgres database() {
    return database;
  }

  int port() {
    return port;
  }

  /** Starts {@code command}, its console in {@code log}; returns a client once it is ready. */
  Http start(List<String> command, Path log, Duration deadline)
      throws IOException, InterruptedException {
    return start(command, Map.of(), log, deadline);
  }

  /** The same, with {@code environment} added to the server's. */
  Http start(List<String> command, Map<String, String> environment, Path log, Duration deadline)
      throws IOException, InterruptedException {
    ready = null;
    process = ServerProcess.start(name, command, environment, directory, log);
    ready = process.awaitReady(URI.create("http://127.0.0.1:" + port), deadline);
    return new Http(new URL("http://127.0.0.1:" + port + "/"));
  }

  /** Starts {@code command}, its console in {@code log}, without waiting; returns its PID. */
  long launch(List<String> command, Path log) throws IOException {
    ready = null;
    process = ServerProcess.start(name, command, Map.of(), directory, log);
    return process.pid();
  }

  /**
   * The generated administrator of {@code file} (bootstrap-admin.txt, {@code client_id=} and {@code
   * client_secret=} lines), which must be owner-only: how every distribution IT signs in.
   */
  static Properties bootstrapAdministrator(Path file) throws IOException {
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    Properties admin = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      admin.load(reader);
    }
    return admin;
  }

  /** The {@code issuer} of the server's discovery document. */
  static String metadataIssuer(Http http) {
    return Http.json(http.get("/.well-known/oauth-authorization-server")).path("issuer").asText();
  }

  /** Stops the server's process (if any), printing how long it took; the database stays. */
  void stop() throws InterruptedException {
    if (process == null) {
      return;
    }
    long stopping = System.nanoTime();
    process.close();
    System.out.printf(
        "%s %s (pid %d): ready in %d ms, stopped in %d ms%n",
        name,
        distribution.getFileName(),
        process.pid(),
        ready == null ? -1 : ready.toMillis(),
        Duration.ofNanos(System.nanoTime() - stopping).toMillis());
    process = null;
  }

  @Override
  public void close() throws Exception {
    try {
      stop();
    } finally {
      database.close();
    }
  }
}
