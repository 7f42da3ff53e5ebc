package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 35: the chaos suite's routes are read, not listed, and none is missed. */
class ChaosRoutesTest {
  static JsonNode openApi() throws Exception {
    try (InputStream in =
        ChaosRoutesTest.class.getResourceAsStream("/dev/platform/identity/web/openapi.json")) {
      return new ObjectMapper().readTree(in);
    }
  }

  @Test
  void whenTheRoutesAreReadThenEveryOperationOfTheDocumentIsThere() throws Exception {
    JsonNode document = openApi();
    int operations = 0;
    for (JsonNode path : document.get("paths")) {
      for (var names = path.fieldNames(); names.hasNext(); ) {
        operations += names.next().equals("parameters") ? 0 : 1;
      }
    }
    List<ChaosRoutes.Route> api =
        ChaosRoutes.all(document).stream()
            .filter(route -> route.group() != ChaosRoutes.Group.CONSOLE)
            .toList();

    assertEquals(operations, api.size(), api.toString());
    assertTrue(api.toString().contains("POST /oauth/token"), api.toString());
    assertTrue(api.toString().contains("POST /oauth/revoke"), api.toString());
    assertTrue(api.toString().contains("POST /oauth/introspect"), api.toString());
    assertTrue(api.toString().contains("GET /oauth/revocations"), api.toString());
    assertTrue(
        api.toString()
            .contains("PUT /admin/v1/service-accounts/00000000-0000-4000-8000-000000000035/jwks"),
        api.toString());
  }

  @Test
  void whenTheConsoleIsReadThenItsLoginAndItsFormsAreThereWithTheirBodies() {
    List<ChaosRoutes.Route> console = ChaosRoutes.console();

    assertTrue(console.toString().contains("GET /console/login"), console.toString());
    ChaosRoutes.Route login =
        console.stream()
            .filter(r -> r.toString().equals("POST /console/login"))
            .findFirst()
            .orElseThrow();
    assertEquals("application/x-www-form-urlencoded", login.contentType());
    assertTrue(
        console.stream().filter(ChaosRoutes.Route::takesBody).count() >= 5, console.toString());
  }
}
