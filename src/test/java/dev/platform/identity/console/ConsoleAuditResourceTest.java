package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleAuditResourceTest {
  @Test
  void whenAFilterIsEmptyThenTheQueryLeavesItOut() {
    MultivaluedMap<String, String> given = new MultivaluedHashMap<>();
    given.add("event", "");
    given.add("actor", "");
    given.add("target", "scope:a b");

    assertEquals("?target=scope%3Aa+b", ConsoleAuditResource.query(given, Map.of()));
  }

  @Test
  void whenEveryFilterIsEmptyThenThereIsNoQuery() {
    MultivaluedMap<String, String> given = new MultivaluedHashMap<>();
    given.add("event", "");

    assertEquals("", ConsoleAuditResource.query(given, Map.of()));
  }

  @Test
  void whenTheNextPageIsAskedThenItsCursorReplacesTheOldOneAndTheFiltersStay() {
    MultivaluedMap<String, String> given = new MultivaluedHashMap<>();
    given.add("cursor", "old");
    given.add("event", "key.revoke");

    assertEquals(
        "?cursor=new%2F1&event=key.revoke",
        ConsoleAuditResource.query(given, Map.of("cursor", "new/1")));
  }
}
