package dev.platform.identity.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChannelGrantTest {
  @Test
  void whenBuiltThenEachListIsSortedAndDistinct() {
    ChannelGrant permissions =
        new ChannelGrant(
            List.of("b.*", "a.*", "b.*"), List.of("z", "y", "z"), List.of("a.b", "a.*"));

    assertEquals(List.of("a.*", "b.*"), permissions.subscribe());
    assertEquals(List.of("y", "z"), permissions.publish());
    assertEquals(List.of("a.*", "a.b"), permissions.replay());
  }

  @Test
  void whenSourceListChangesThenPermissionsDoNot() {
    List<String> source = new ArrayList<>(List.of("a.*"));
    ChannelGrant permissions = new ChannelGrant(source, source, source);

    source.add("b.*");

    assertEquals(List.of("a.*"), permissions.subscribe());
    assertThrows(UnsupportedOperationException.class, () -> permissions.publish().add("c"));
  }

  @Test
  void whenUnitedThenEveryPatternPerActionSortedAndDistinct() {
    ChannelGrant view = new ChannelGrant(List.of("m.content.*"), List.of(), List.of("m.content.*"));
    ChannelGrant create = new ChannelGrant(List.of(), List.of("m.content.*"), List.of());
    ChannelGrant all = new ChannelGrant(List.of("c.*"), List.of("c.*"), List.of("c.*"));

    ChannelGrant union = ChannelGrant.union(List.of(view, create, all, view));

    assertEquals(List.of("c.*", "m.content.*"), union.subscribe());
    assertEquals(List.of("c.*", "m.content.*"), union.publish());
    assertEquals(List.of("c.*", "m.content.*"), union.replay());
  }

  @Test
  void whenUnitedInAnotherOrderThenEqual() {
    ChannelGrant a = new ChannelGrant(List.of("a"), List.of("p"), List.of());
    ChannelGrant b = new ChannelGrant(List.of("b"), List.of(), List.of("r"));

    assertEquals(ChannelGrant.union(List.of(a, b)), ChannelGrant.union(List.of(b, a)));
  }

  @Test
  void whenNothingUnitedThenNone() {
    assertEquals(ChannelGrant.NONE, ChannelGrant.union(List.of()));
  }
}
