package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.http.ErrorBody;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

class ClientErrorsTest {
  @Test
  void whenAPathPointsAtTheAdministrationApiHoweverSpelledThenItsErrorsAreInSpec72Shape() {
    for (String path :
        new String[] {
          "admin/v1/x", "/admin/v1", "//admin/v1", "ADMIN/v1", "admin;x/v1", "./admin/v1"
        }) {
      Response response = ClientErrors.of(404, "no", path);
      assertEquals(404, response.getStatus());
      assertEquals("no-store", response.getHeaderString("Cache-Control"));
      assertFalse(response.getEntity() instanceof ErrorBody, path);
    }
  }

  @Test
  void whenAPathIsElsewhereThenItsErrorsAreTheErrorShape() {
    for (String path :
        new String[] {
          "", "/", "api/public-keys/x", "health/live", "administrator/v1", "admin/v2"
        }) {
      Response response = ClientErrors.of(405, "no", path);
      assertTrue(response.getEntity() instanceof ErrorBody, path);
    }
  }
}
