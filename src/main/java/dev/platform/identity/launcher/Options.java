package dev.platform.identity.launcher;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The launcher's command line. {@code tls} and {@code trustedProxies} are issue 39's two ways a
 * client certificate reaches the service: the launcher's own TLS, or a header from a proxy.
 */
record Options(
    String bind,
    int port,
    Path data,
    Optional<Path> context,
    Path war,
    int threads,
    Optional<ServerKeyStore> tls,
    Optional<Pattern> trustedProxies,
    Optional<Path> clientCas,
    boolean dpopNonces,
    boolean virtualThreads) {
  static final String USAGE =
      "usage: java -jar identity-launcher.jar [--bind 127.0.0.1] [--port 8080] [--data ./data]"
          + " [--context context.xml] [--war identity.war] [--threads N]"
          + " [--tls-keystore server.p12 --tls-keystore-password-file FILE]"
          + " [--trusted-proxy REGEX] [--tls-client-ca FILE] [--dpop-nonces]"
          + " [--virtual-threads]";

  /** What {@code --help} prints: the usage line and one line per option. */
  static final String HELP =
      USAGE
          + "\n\nRuns the identity service on an embedded Tomcat, for a laptop or a test host.\n"
          + "  --bind ADDRESS   the address to listen on (default 127.0.0.1)\n"
          + "  --port N         the HTTP port (default 8080)\n"
          + "  --data FOLDER    the H2 database and the generated secrets (default ./data)\n"
          + "  --context FILE   a Tomcat context.xml with the settings and the DataSource\n"
          + "                   (default: H2 in the data folder, docs/configuration.md)\n"
          + "  --war FILE       the WAR to run (default: identity.war in the folder above this jar's)\n"
          + "  --threads N      request threads (default: 4 per core, at least 8)\n"
          + "  --virtual-threads (Java 21 or later)\n"
          + "                   each request on a virtual thread: --threads no longer bounds\n"
          + "                   them, but still sets the per-address and database shares\n"
          + "                   derived from it (docs/performance.md)\n"
          + "  --tls-keystore FILE\n"
          + "                   HTTPS instead of HTTP on the port, with the server key and chain\n"
          + "                   in this PKCS#12 file; a client certificate is asked for but not\n"
          + "                   required, and its chain is left to the service (RFC 8705)\n"
          + "  --tls-keystore-password-file FILE\n"
          + "                   the key store's password, in a file only its owner can read\n"
          + "                   (never on the command line)\n"
          + "  --trusted-proxy REGEX\n"
          + "                   addresses of proxies that end TLS and pass the client certificate\n"
          + "                   in the ssl_client_cert or ssl_client_escaped_cert header (e.g.\n"
          + "                   10\\.0\\.0\\.(5|6)); the header from any other address is ignored\n"
          + "                   and logged (docs/mutual-tls.md)\n"
          + "  --tls-client-ca FILE\n"
          + "                   the CA certificates (PEM) that tls_client_auth clients'\n"
          + "                   certificates must chain to: identity/tlsClientCaFile\n"
          + "  --dpop-nonces    DPoP proofs must carry a server nonce (DPoP-Nonce, RFC 9449):\n"
          + "                   identity/dpopNonces=true\n"
          + "  --help, -h       this text\n";

  /**
   * Request threads: a token request is CPU-bound (its RSA signature), so a few per core keep the
   * cores busy, and more only make the scheduler interleave requests (docs/performance.md).
   */
  static final int DEFAULT_THREADS = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());

  /**
   * Whether {@code args} ask for {@link #HELP}: {@code --help} or {@code -h} where an option is
   * expected (not as the value of another option, such as a folder named {@code --help}).
   */
  static boolean asksForHelp(String[] args) {
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--help", "-h" -> {
          return true;
        }
        case "--bind",
                "--port",
                "--data",
                "--context",
                "--war",
                "--threads",
                "--tls-keystore",
                "--tls-keystore-password-file",
                "--trusted-proxy",
                "--tls-client-ca" ->
            i++;
        default -> {}
      }
    }
    return false;
  }

  /** The first Java whose virtual threads are final (JEP 444), which Tomcat's connector needs. */
  static final int VIRTUAL_THREADS_JAVA = 21;

  static Options parse(String[] args, Path defaultWar) {
    return parse(args, defaultWar, Runtime.version().feature());
  }

  /** {@code java} is the running Java's feature release, passed in so tests can choose it. */
  static Options parse(String[] args, Path defaultWar, int java) {
    String bind = "127.0.0.1";
    int port = 8080;
    Path data = Path.of("data");
    Optional<Path> context = Optional.empty();
    Path war = defaultWar;
    int threads = DEFAULT_THREADS;
    Path keyStore = null;
    Path passwordFile = null;
    Optional<Pattern> trustedProxies = Optional.empty();
    Optional<Path> clientCas = Optional.empty();
    boolean dpopNonces = false;
    boolean virtualThreads = false;
    Deque<String> rest = new ArrayDeque<>(Arrays.asList(args));
    while (!rest.isEmpty()) {
      String option = rest.pop();
      switch (option) {
        case "--bind" -> bind = value(option, rest);
        case "--port" -> port = number(option, value(option, rest), 1, 65535);
        case "--data" -> data = Path.of(value(option, rest));
        case "--context" -> context = Optional.of(Path.of(value(option, rest)));
        case "--war" -> war = Path.of(value(option, rest));
        case "--threads" -> threads = number(option, value(option, rest), 1, 1000);
        case "--tls-keystore" -> keyStore = Path.of(value(option, rest));
        case "--tls-keystore-password-file" -> passwordFile = Path.of(value(option, rest));
        case "--trusted-proxy" -> trustedProxies = Optional.of(regex(option, value(option, rest)));
        case "--tls-client-ca" -> clientCas = Optional.of(Path.of(value(option, rest)));
        case "--dpop-nonces" -> dpopNonces = true;
        case "--virtual-threads" -> virtualThreads = virtualThreads(java);
        default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
      }
    }
    return new Options(
        bind,
        port,
        data.toAbsolutePath(),
        context,
        war.toAbsolutePath(),
        threads,
        tls(keyStore, passwordFile),
        trustedProxies,
        clientCas.map(Path::toAbsolutePath),
        dpopNonces,
        virtualThreads);
  }

  /** Refused before Tomcat starts: on Java 17 its connector would fail with a stack trace. */
  private static boolean virtualThreads(int java) {
    if (java < VIRTUAL_THREADS_JAVA) {
      throw new IllegalArgumentException(
          "--virtual-threads needs Java "
              + VIRTUAL_THREADS_JAVA
              + " or later; this is Java "
              + java);
    }
    return true;
  }

  private static Optional<ServerKeyStore> tls(Path keyStore, Path passwordFile) {
    if (keyStore == null && passwordFile == null) {
      return Optional.empty();
    }
    if (keyStore == null || passwordFile == null) {
      throw new IllegalArgumentException(
          "--tls-keystore and --tls-keystore-password-file go together\n" + USAGE);
    }
    return Optional.of(
        new ServerKeyStore(keyStore.toAbsolutePath(), passwordFile.toAbsolutePath()));
  }

  private static Pattern regex(String option, String text) {
    try {
      return Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          option + " must be a regular expression of addresses, not " + text, e);
    }
  }

  private static String value(String option, Deque<String> rest) {
    if (rest.isEmpty()) {
      throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
    }
    return rest.pop();
  }

  private static int number(String option, String text, int min, int max) {
    try {
      int number = Integer.parseInt(text);
      if (number < min || number > max) {
        throw new IllegalArgumentException(
            option + " must be from " + min + " to " + max + ", not " + text);
      }
      return number;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be a number, not " + text, e);
    }
  }

  /** The issuer a local user reaches: the bound address, or loopback when bound to all. */
  String issuer() {
    String host = bind.equals("0.0.0.0") || bind.equals("::") ? "127.0.0.1" : bind;
    return scheme() + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** {@code https} with {@code --tls-keystore}, else {@code http}. */
  String scheme() {
    return tls.isPresent() ? "https" : "http";
  }
}
