package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.http.ErrorBody;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a busy or slow database, as the catch-all answers it: 503 with Retry-After in each
 * surface's shape, however the path is spelled.
 */
class DatabaseUnavailableTest {
  static final RuntimeException LOCK_TIMEOUT =
      new PersistenceException(
          new SQLException("canceling statement due to lock timeout", "55P03"));

  Response answer(String path) {
    return ServerErrorMappers.at(path).toResponse(LOCK_TIMEOUT);
  }

  @Test
  void whenTheAdministrationApiMeetsATimeoutThen503InSpec72ShapeWithRetryAfter() {
    for (String path : new String[] {"admin/v1/service-accounts", "//ADMIN/v1;x/scopes"}) {
      Response response = answer(path);
      assertEquals(503, response.getStatus(), path);
      assertEquals("2", response.getHeaderString("Retry-After"), path);
      assertTrue(response.getEntity().toString().contains("success=false"), path);
    }
  }

  @Test
  void whenTheConsoleMeetsATimeoutThenA503Page() {
    for (String path : new String[] {"console/accounts", "/Console/keys", "console"}) {
      Response response = answer(path);
      assertEquals(503, response.getStatus(), path);
      assertEquals("2", response.getHeaderString("Retry-After"), path);
      assertTrue(response.getMediaType().isCompatible(MediaType.TEXT_HTML_TYPE), path);
      assertTrue(response.getEntity().toString().contains("Try again in a moment"), path);
    }
  }

  @Test
  void whenAnotherPathMeetsATimeoutThen503ErrorShape() {
    Response response = answer("api/public-keys/x");
    assertEquals(503, response.getStatus());
    assertEquals("2", response.getHeaderString("Retry-After"));
    assertTrue(response.getEntity() instanceof ErrorBody);
  }
}
