package dev.platform.identity.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every route the chaos suite attacks, in one place (issue 35), read rather than listed: the API's
 * from the running service's {@code /openapi.json}, the console's from the JAX-RS annotations
 * ({@code @Path} and the HTTP-method annotations) of the classes in {@code
 * dev.platform.identity.console}. A new endpoint is attacked without anyone adding it here.
 */
final class ChaosRoutes {
  private static final String CONSOLE_PACKAGE = "dev.platform.identity.console";

  /** Which defences a route shares, so one row of the report stands for it. */
  enum Group {
    TOKEN("token"),
    PUBLIC("public GETs"),
    ADMIN("admin API"),
    CONSOLE("console");

    final String label;

    Group(String label) {
      this.label = label;
    }
  }

  /** One method on one path, its path parameters filled in, and what its body is. */
  record Route(Group group, String method, String path, String contentType) {
    boolean takesBody() {
      return contentType != null;
    }

    /** The first bytes of a body of the route's kind, so a reader gets past its first check. */
    String bodyStart() {
      if (contentType == null || contentType.contains("json")) {
        return "{\"name\":\"";
      }
      return "client_id=";
    }

    /** The content type an attacker sends: the route's own, or form data where it takes none. */
    String sentType() {
      return contentType == null ? "application/x-www-form-urlencoded" : contentType;
    }

    @Override
    public String toString() {
      return method + " " + path;
    }
  }

  private ChaosRoutes() {}

  /** All routes: the API's from {@code openApi} (the service's document), then the console's. */
  static List<Route> all(JsonNode openApi) {
    List<Route> routes = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> paths = openApi.get("paths").fields();
    while (paths.hasNext()) {
      Map.Entry<String, JsonNode> path = paths.next();
      Iterator<Map.Entry<String, JsonNode>> operations = path.getValue().fields();
      while (operations.hasNext()) {
        Map.Entry<String, JsonNode> operation = operations.next();
        if (operation.getKey().equals("parameters")) {
          continue;
        }
        JsonNode body = operation.getValue().path("requestBody").path("content");
        String type = body.isObject() && body.size() > 0 ? body.fieldNames().next() : null;
        routes.add(
            new Route(
                group(path.getKey()),
                operation.getKey().toUpperCase(Locale.ROOT),
                fill(path.getKey()),
                type));
      }
    }
    routes.addAll(console());
    return routes;
  }

  /** The routes of {@code group}; never none (a group found empty means the reading broke). */
  static List<Route> of(List<Route> routes, Group group) {
    List<Route> found = routes.stream().filter(route -> route.group() == group).toList();
    if (found.isEmpty()) {
      throw new IllegalStateException("no route found for " + group.label + " in " + routes);
    }
    return found;
  }

  private static Group group(String path) {
    // Revocation and introspection share the token endpoint's parsing, budgets and body cap.
    if (List.of("/oauth/token", "/oauth/revoke", "/oauth/introspect").contains(path)) {
      return Group.TOKEN;
    }
    if (path.startsWith("/admin/") || path.equals("/metrics")) {
      return Group.ADMIN;
    }
    return Group.PUBLIC;
  }

  /** Path parameters get a value that names nothing: the route's checks still run. */
  private static String fill(String template) {
    return template
        .replaceAll("\\{clientId}", "00000000-0000-4000-8000-000000000035")
        .replaceAll("\\{[^}]+}", "chaos");
  }

  /** The console's resource methods, by reflection over the package's classes. */
  static List<Route> console() {
    List<Route> routes = new ArrayList<>();
    for (Class<?> type : classes(CONSOLE_PACKAGE)) {
      jakarta.ws.rs.Path root = type.getAnnotation(jakarta.ws.rs.Path.class);
      if (root == null) {
        continue;
      }
      Stream.of(type.getDeclaredMethods())
          .sorted(Comparator.comparing(Method::getName))
          .forEach(
              method -> {
                String verb = httpMethod(method);
                if (verb == null) {
                  return;
                }
                jakarta.ws.rs.Path sub = method.getAnnotation(jakarta.ws.rs.Path.class);
                String path = root.value() + (sub == null ? "" : "/" + sub.value());
                jakarta.ws.rs.Consumes consumes =
                    method.getAnnotation(jakarta.ws.rs.Consumes.class);
                String type2 =
                    consumes != null
                        ? consumes.value()[0]
                        : verb.equals("POST") ? "application/x-www-form-urlencoded" : null;
                routes.add(new Route(Group.CONSOLE, verb, fill(path.replace("//", "/")), type2));
              });
    }
    return routes;
  }

  private static String httpMethod(Method method) {
    for (var annotation : method.getAnnotations()) {
      jakarta.ws.rs.HttpMethod verb =
          annotation.annotationType().getAnnotation(jakarta.ws.rs.HttpMethod.class);
      if (verb != null) {
        return verb.value();
      }
    }
    return null;
  }

  /**
   * The classes of {@code pkg} in the classes folders on the class path: the main classes' folder
   * and the tests' (which has a package of the same name) both answer.
   */
  private static List<Class<?>> classes(String pkg) {
    List<Class<?>> classes = new ArrayList<>();
    try {
      for (URL folder :
          java.util.Collections.list(
              ChaosRoutes.class.getClassLoader().getResources(pkg.replace('.', '/')))) {
        if (!folder.getProtocol().equals("file")) {
          continue;
        }
        try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
          files
              .map(file -> file.getFileName().toString())
              .filter(name -> name.endsWith(".class") && !name.contains("$"))
              .sorted()
              .forEach(name -> classes.add(load(pkg + "." + name.replace(".class", ""))));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    if (classes.isEmpty()) {
      throw new IllegalStateException(pkg + " is not on the class path");
    }
    return classes;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, ChaosRoutes.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
