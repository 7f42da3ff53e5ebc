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

  /**
   * Request threads: a token request is CPU-bound (its RSA signature), so a few per core keep the
   * cores busy, and more only make the scheduler interleave requests (docs/performance.md).
   */
  static final int DEFAULT_THREADS = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());

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
