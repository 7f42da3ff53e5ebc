package dev.platform.identity.launcher;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Optional;

/** The launcher's command line. */
record Options(String bind, int port, Path data, Optional<Path> context, Path war, int threads) {
  static final String USAGE =
      "usage: java -jar identity-launcher.jar [--bind 127.0.0.1] [--port 8080] [--data ./data]"
          + " [--context context.xml] [--war identity.war] [--threads N]";

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
        case "--bind", "--port", "--data", "--context", "--war", "--threads" -> i++;
        default -> {}
      }
    }
    return false;
  }

  static Options parse(String[] args, Path defaultWar) {
    String bind = "127.0.0.1";
    int port = 8080;
    Path data = Path.of("data");
    Optional<Path> context = Optional.empty();
    Path war = defaultWar;
    int threads = DEFAULT_THREADS;
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
        default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
      }
    }
    return new Options(bind, port, data.toAbsolutePath(), context, war.toAbsolutePath(), threads);
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
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
