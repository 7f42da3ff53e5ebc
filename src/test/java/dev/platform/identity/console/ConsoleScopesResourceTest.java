package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleScopesResourceTest {
  @Test
  void whenChannelsAreTypedOneALineThenBlankLinesAndSpacesAreDropped() {
    assertEquals(List.of("a.*", "b"), ConsoleScopesResource.lines(" a.* \r\n\r\n b\n"));
  }

  @Test
  void whenNoChannelIsTypedThenThereIsNone() {
    assertEquals(List.of(), ConsoleScopesResource.lines(""));
  }
}
