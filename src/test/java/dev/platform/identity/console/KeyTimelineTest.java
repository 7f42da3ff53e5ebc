package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.KeyStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTimelineTest {
  private static final int WIDTH = 1000;
  private static final int RIGHT = WIDTH - KeyTimeline.RIGHT_MARGIN;
  private static final Instant NOW = Instant.parse("2026-01-15T00:00:00Z");

  private static final KeyStatus RETIRING =
      key("old", "retiring", "2026-01-01", "2026-01-02", "2026-01-20");
  private static final KeyStatus CURRENT = key("new", "current", "2026-01-10", "2026-01-11", null);
  private static final KeyStatus REVOKED = key("bad", "revoked", "2026-01-12", "2026-01-13", null);

  @Test
  void whenKeysAreGivenThenTheRowsRunOldestFirstEachWithItsKid() {
    KeyTimeline timeline = KeyTimeline.of(List.of(REVOKED, CURRENT, RETIRING), NOW, WIDTH);

    assertEquals(
        List.of("old", "new", "bad"), timeline.rows().stream().map(KeyTimeline.Row::kid).toList());
    assertEquals(
        KeyTimeline.TOP + 3 * KeyTimeline.ROW_HEIGHT + KeyTimeline.AXIS_HEIGHT, timeline.height());
    assertEquals(KeyTimeline.TOP + KeyTimeline.ROW_HEIGHT, timeline.rows().get(1).y());
  }

  @Test
  void whenAKeyHasASuccessorThenItSignsUntilTheSuccessorSignsAndRetiresUntilItExpires() {
    List<KeyTimeline.Span> spans = row(RETIRING).spans();

    assertEquals(List.of("published", "signing", "retiring"), kinds(spans));
    assertEquals(at("2026-01-01"), spans.get(0).from());
    assertEquals(at("2026-01-02"), spans.get(1).from());
    assertEquals(at("2026-01-11"), spans.get(1).to());
    assertEquals(at("2026-01-20"), spans.get(2).to());
    assertEquals(KeyTimeline.LABEL_WIDTH, spans.get(0).x());
    assertEquals(spans.get(1).x(), spans.get(0).x() + spans.get(0).width());
    assertEquals(spans.get(2).x(), spans.get(1).x() + spans.get(1).width());
  }

  @Test
  void whenTheCurrentKeyHasNoSuccessorThenItSignsToTheRightEdge() {
    List<KeyTimeline.Span> spans = row(CURRENT).spans();

    assertEquals(List.of("published", "signing"), kinds(spans));
    assertEquals(RIGHT, spans.get(1).x() + spans.get(1).width());
  }

  @Test
  void whenAKeyIsRevokedThenItIsOneRevokedSpanToNowAndNoKeySucceedsItsPredecessor() {
    KeyTimeline timeline = timeline();
    List<KeyTimeline.Span> spans = row(REVOKED).spans();

    assertEquals(List.of("revoked"), kinds(spans));
    assertEquals(timeline.nowX(), spans.get(0).x() + spans.get(0).width());
    assertEquals(RIGHT, last(row(CURRENT).spans()));
  }

  @Test
  void whenAKeySignsAtOnceThenItHasNoPublishedSpan() {
    KeyStatus immediate = key("now", "current", "2026-01-14", "2026-01-14", null);

    KeyTimeline timeline = KeyTimeline.of(List.of(immediate), NOW, WIDTH);

    assertEquals(List.of("signing"), kinds(timeline.rows().get(0).spans()));
  }

  @Test
  void whenAScheduledKeyWasWithdrawnThenItIsPublishedUntilItLeftAndSucceedsNoKey() {
    KeyStatus withdrawn =
        new KeyStatus(
            "withdrawn",
            "expired",
            at("2026-01-16").toString(),
            at("2026-01-11").toString(),
            false,
            at("2026-01-10").toString(),
            "kek-1",
            "database");

    KeyTimeline timeline = KeyTimeline.of(List.of(RETIRING, withdrawn), NOW, WIDTH);

    List<KeyTimeline.Span> spans = timeline.rows().get(1).spans();
    assertEquals(List.of("published"), kinds(spans));
    assertEquals(at("2026-01-11"), spans.get(0).to());
    assertEquals(at("2026-01-20"), timeline.rows().get(0).spans().get(1).to());
  }

  @Test
  void whenDrawnThenNowAndTheTicksLieInsideTheAxis() {
    KeyTimeline timeline = timeline();

    assertTrue(timeline.nowX() > KeyTimeline.LABEL_WIDTH && timeline.nowX() < RIGHT);
    assertEquals(KeyTimeline.TICKS, timeline.ticks().size());
    assertEquals(
        new KeyTimeline.Tick(KeyTimeline.LABEL_WIDTH, "2026-01-01", "start"),
        timeline.ticks().get(0));
    assertEquals(RIGHT, timeline.ticks().get(KeyTimeline.TICKS - 1).x());
    assertEquals("end", timeline.ticks().get(KeyTimeline.TICKS - 1).anchor());
  }

  @Test
  void whenThereIsNoKeyThenThereIsOnlyTheAxis() {
    KeyTimeline timeline = KeyTimeline.of(List.of(), NOW, WIDTH);

    assertEquals(List.of(), timeline.rows());
    assertEquals(KeyTimeline.TOP + KeyTimeline.AXIS_HEIGHT, timeline.height());
    assertEquals(KeyTimeline.LABEL_WIDTH, timeline.nowX());
    assertEquals("01-15 00:00", timeline.ticks().get(0).label());
  }

  private static KeyTimeline timeline() {
    return KeyTimeline.of(List.of(RETIRING, CURRENT, REVOKED), NOW, WIDTH);
  }

  private static KeyTimeline.Row row(KeyStatus key) {
    return timeline().rows().stream()
        .filter(row -> row.kid().equals(key.kid()))
        .findFirst()
        .orElseThrow();
  }

  private static List<String> kinds(List<KeyTimeline.Span> spans) {
    return spans.stream().map(KeyTimeline.Span::kind).toList();
  }

  private static int last(List<KeyTimeline.Span> spans) {
    KeyTimeline.Span span = spans.get(spans.size() - 1);
    return span.x() + span.width();
  }

  private static Instant at(String day) {
    return Instant.parse(day + "T00:00:00Z");
  }

  private static KeyStatus key(
      String kid, String state, String created, String active, String expires) {
    return new KeyStatus(
        kid,
        state,
        at(active).toString(),
        expires == null ? null : at(expires).toString(),
        state.equals("current"),
        at(created).toString(),
        "kek-1",
        "database");
  }
}
