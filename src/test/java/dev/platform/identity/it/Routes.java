package dev.platform.identity.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Issue 35: every route of the service, read from what serves it, never from a list kept by hand:
 * the paths and methods of {@code /openapi.json}, and the console's Jersey resources (which the
 * OpenAPI document leaves out) by their annotations. A new endpoint is attacked by the suites that
 * take their routes from here without anyone adding it.
 */
final class Routes {
  /** One route: a method and a path with its templates filled in. */
  record Route(String method, String path, boolean anonymous) {
    @Override
    public String toString() {
      return method + " " + path;
    }
  }

  private static final Map<String, String> TEMPLATES =
      Map.of(
          "{clientId}", "6f1c1a3e-3d7e-4c7a-9a4e-0b5f5f0e8a11",
          "{kid}", "no-such-kid",
          "{scope}", "billing:invoices.read");

  private Routes() {}

  /** The routes of {@code openapi} (the document's JSON) and of the console. */
  static List<Route> all(String openapi) {
    List<Route> routes = new ArrayList<>(documented(openapi));
    routes.addAll(console());
    return routes;
  }

  static List<Route> documented(String openapi) {
    try {
      JsonNode paths = new ObjectMapper().readTree(openapi).path("paths");
      List<Route> routes = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> path = it.next();
        for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields();
            ops.hasNext(); ) {
          Map.Entry<String, JsonNode> op = ops.next();
          if (isMethod(op.getKey())) {
            boolean anonymous =
                op.getValue().has("security") && op.getValue().get("security").isEmpty();
            routes.add(
                new Route(op.getKey().toUpperCase(Locale.ROOT), fill(path.getKey()), anonymous));
          }
        }
      }
      return routes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The console's resource methods, found by their JAX-RS annotations. */
  static List<Route> console() {
    TreeSet<String> seen = new TreeSet<>();
    List<Route> routes = new ArrayList<>();
    for (Class<?> resource : consoleClasses()) {
      Path root = resource.getAnnotation(Path.class);
      if (root == null) {
        continue;
      }
      for (Method method : resource.getMethods()) {
        String verb = verb(method);
        if (verb == null) {
          continue;
        }
        Path sub = method.getAnnotation(Path.class);
        String path = join(root.value(), sub == null ? "" : sub.value());
        boolean anonymous =
            Stream.of(method.getAnnotations())
                .anyMatch(a -> a.annotationType().getSimpleName().equals("Anonymous"));
        if (seen.add(verb + " " + path)) {
          routes.add(new Route(verb, fill(path), anonymous));
        }
      }
    }
    return routes;
  }

  private static List<Class<?>> consoleClasses() {
    try {
      var folder =
          java.nio.file.Path.of(
                  Routes.class
                      .getResource("/dev/platform/identity/console/package-info.class")
                      .toURI())
              .getParent();
      try (Stream<java.nio.file.Path> files = Files.list(folder)) {
        List<Class<?>> classes = new ArrayList<>();
        for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) files::iterator) {
          String name = file.getFileName().toString();
          if (name.endsWith(".class") && !name.contains("$") && !name.startsWith("package-info")) {
            classes.add(
                Class.forName("dev.platform.identity.console." + name.replace(".class", "")));
          }
        }
        return classes;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException | ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String verb(Method method) {
    for (Annotation annotation : method.getAnnotations()) {
      HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
      if (http != null) {
        return http.value();
      }
    }
    return null;
  }

  private static String join(String root, String sub) {
    String path = ("/" + root + "/" + sub).replaceAll("/+", "/");
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static String fill(String path) {
    String filled = path;
    for (Map.Entry<String, String> template : TEMPLATES.entrySet()) {
      filled = filled.replace(template.getKey(), template.getValue());
    }
    // A template this class does not know, or one with a regular expression ({name: .+}).
    return filled.replaceAll("\\{[^}]*}", "x");
  }

  private static boolean isMethod(String key) {
    return List.of("get", "put", "post", "delete", "patch", "head", "options").contains(key);
  }
}
