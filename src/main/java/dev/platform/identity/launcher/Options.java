package dev.platform.identity.launcher;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Optional;

/** The launcher's command line. */
record Options(String bind, int port, Path data, Optional<Path> context, Path war) {
  static final String USAGE =
      "usage: java -jar identity-launcher.jar [--bind 127.0.0.1] [--port 8080] [--data ./data]"
          + " [--context context.xml] [--war identity.war]";

  static Options parse(String[] args, Path defaultWar) {
    String bind = "127.0.0.1";
    int port = 8080;
    Path data = Path.of("data");
    Optional<Path> context = Optional.empty();
    Path war = defaultWar;
    Deque<String> rest = new ArrayDeque<>(Arrays.asList(args));
    while (!rest.isEmpty()) {
      String option = rest.pop();
      switch (option) {
        case "--bind" -> bind = value(option, rest);
        case "--port" -> port = port(value(option, rest));
        case "--data" -> data = Path.of(value(option, rest));
        case "--context" -> context = Optional.of(Path.of(value(option, rest)));
        case "--war" -> war = Path.of(value(option, rest));
        default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
      }
    }
    return new Options(bind, port, data.toAbsolutePath(), context, war.toAbsolutePath());
  }

  private static String value(String option, Deque<String> rest) {
    if (rest.isEmpty()) {
      throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
    }
    return rest.pop();
  }

  private static int port(String text) {
    try {
      int port = Integer.parseInt(text);
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("--port must be from 1 to 65535, not " + text);
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--port must be a number, not " + text, e);
    }
  }

  /** The issuer a local user reaches: the bound address, or loopback when bound to all. */
  String issuer() {
    String host = bind.equals("0.0.0.0") || bind.equals("::") ? "127.0.0.1" : bind;
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
