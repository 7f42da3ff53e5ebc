package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 §3: {@code openapi.json} is valid OpenAPI 3.1, and documents exactly what the service
 * serves: every resource method of every Jersey resource class in the WAR and the three servlets,
 * nothing more.
 */
class OpenApiDocumentTest {
  /**
   * The servlets that answer beside Jersey (Startup): the token endpoint, revocation,
   * introspection, the revocation feed, the key list, /metrics.
   */
  static final Set<String> SERVLETS =
      Set.of(
          "POST /oauth/token",
          "POST /oauth/revoke",
          "POST /oauth/introspect",
          "GET /oauth/revocations",
          "GET /api/public-keys",
          "GET /metrics");

  /**
   * The console's pages are HTML for a browser, not API: they are left out on purpose, and the
   * document's description says so.
   */
  static final String CONSOLE_PACKAGE = "dev.platform.identity.console";

  static OpenAPI parsed() throws IOException {
    String json;
    try (InputStream in = OpenApiResource.class.getResourceAsStream("openapi.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    SwaggerParseResult result = new OpenAPIV3Parser().readContents(json, null, options);
    assertTrue(
        result.getMessages() == null || result.getMessages().isEmpty(),
        String.valueOf(result.getMessages()));
    assertNotNull(result.getOpenAPI());
    return result.getOpenAPI();
  }

  /** {@code METHOD /path/{}} for every operation of the document. */
  static Set<String> documented(OpenAPI api) {
    Set<String> operations = new TreeSet<>();
    for (Map.Entry<String, PathItem> path : api.getPaths().entrySet()) {
      for (PathItem.HttpMethod method : path.getValue().readOperationsMap().keySet()) {
        operations.add(method.name() + " " + normal(path.getKey()));
      }
    }
    return operations;
  }

  /** {@code METHOD /path/{}} for every resource method Jersey builds from the WAR's classes. */
  static Set<String> served() throws IOException {
    Set<String> operations = new TreeSet<>(SERVLETS);
    java.nio.file.Path classes = java.nio.file.Path.of("target/classes");
    try (Stream<java.nio.file.Path> files = Files.walk(classes.resolve("dev/platform/identity"))) {
      for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name =
            classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        Class<?> type = load(name);
        if (type.isAnnotationPresent(Path.class) && !name.startsWith(CONSOLE_PACKAGE)) {
          add(Resource.from(type), "", operations);
        }
      }
    }
    return operations;
  }

  private static void add(Resource resource, String prefix, Set<String> operations) {
    String path = join(prefix, resource.getPath());
    for (ResourceMethod method : resource.getResourceMethods()) {
      operations.add(method.getHttpMethod() + " " + normal(path));
    }
    for (Resource child : resource.getChildResources()) {
      add(child, path, operations);
    }
  }

  private static String join(String prefix, String path) {
    String part = path == null ? "" : path.startsWith("/") ? path : "/" + path;
    return prefix + (part.equals("/") ? "" : part);
  }

  private static String normal(String path) {
    String stripped =
        path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    return stripped.replaceAll("\\{[^}]*}", "{}");
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, OpenApiDocumentTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void whenParsedThenItIsValidOpenApi31WithSchemasAndSecurity() throws IOException {
    OpenAPI api = parsed();
    assertTrue(api.getOpenapi().startsWith("3.1"), api.getOpenapi());
    assertTrue(api.getInfo().getDescription().contains("/console"), "says why the console is out");
    assertTrue(
        api.getComponents().getSecuritySchemes().keySet().containsAll(Set.of("basic", "bearer")));
    for (PathItem path : api.getPaths().values()) {
      for (Operation operation : path.readOperations()) {
        assertNotNull(operation.getOperationId());
        assertTrue(!operation.getResponses().isEmpty(), operation.getOperationId());
      }
    }
  }

  @Test
  void whenComparedWithWhatJerseyAndTheServletsServeThenEveryOperationIsDocumentedAndNoMore()
      throws IOException {
    Set<String> served = served();
    assertTrue(served.size() >= 20, served.toString());
    assertEquals(served, documented(parsed()));
  }
}
