package dev.platform.identity.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChannelPermissionsTest {
  @Test
  void whenBuiltThenEachListIsSortedAndDistinct() {
    ChannelPermissions permissions =
        new ChannelPermissions(
            List.of("b.*", "a.*", "b.*"), List.of("z", "y", "z"), List.of("a.b", "a.*"));

    assertEquals(List.of("a.*", "b.*"), permissions.subscribe());
    assertEquals(List.of("y", "z"), permissions.publish());
    assertEquals(List.of("a.*", "a.b"), permissions.replay());
  }

  @Test
  void whenSourceListChangesThenPermissionsDoNot() {
    List<String> source = new ArrayList<>(List.of("a.*"));
    ChannelPermissions permissions = new ChannelPermissions(source, source, source);

    source.add("b.*");

    assertEquals(List.of("a.*"), permissions.subscribe());
    assertThrows(UnsupportedOperationException.class, () -> permissions.publish().add("c"));
  }

  @Test
  void whenUnitedThenEveryPatternPerActionSortedAndDistinct() {
    ChannelPermissions view =
        new ChannelPermissions(List.of("m.content.*"), List.of(), List.of("m.content.*"));
    ChannelPermissions create =
        new ChannelPermissions(List.of(), List.of("m.content.*"), List.of());
    ChannelPermissions all = new ChannelPermissions(List.of("c.*"), List.of("c.*"), List.of("c.*"));

    ChannelPermissions union = ChannelPermissions.union(List.of(view, create, all, view));

    assertEquals(List.of("c.*", "m.content.*"), union.subscribe());
    assertEquals(List.of("c.*", "m.content.*"), union.publish());
    assertEquals(List.of("c.*", "m.content.*"), union.replay());
  }

  @Test
  void whenUnitedInAnotherOrderThenEqual() {
    ChannelPermissions a = new ChannelPermissions(List.of("a"), List.of("p"), List.of());
    ChannelPermissions b = new ChannelPermissions(List.of("b"), List.of(), List.of("r"));

    assertEquals(ChannelPermissions.union(List.of(a, b)), ChannelPermissions.union(List.of(b, a)));
  }

  @Test
  void whenNothingUnitedThenNone() {
    assertEquals(ChannelPermissions.NONE, ChannelPermissions.union(List.of()));
  }
}
