package dev.platform.identity.console;

import dev.platform.identity.key.KeyStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The geometry of the signing keys' timeline, in pixels of an SVG {@code width} wide, which {@code
 * keys.jte} draws as it is. One row per key, oldest first:
 *
 * <ul>
 *   <li>{@code published}: from its creation until it signs ({@code active_from}), or until it
 *       leaves the list ({@code expires_at}) if that comes first, as for a scheduled key that an
 *       emergency rotation withdrew;
 *   <li>{@code signing}: from {@code active_from} until the next key that ever signs starts
 *       signing; with no successor, until it leaves the list if {@code expires_at} is set, else to
 *       the right edge, since it signs on until a rotation;
 *   <li>{@code retiring}: from the end of its signing until {@code expires_at};
 *   <li>{@code revoked}: a revoked key is one span from its creation to now, since the key's status
 *       does not carry the instant of its revocation.
 * </ul>
 *
 * <p>The time axis runs from the oldest creation to the last instant any key names (or now), with a
 * tenth more on the right, so that what signs on has somewhere to go.
 */
public record KeyTimeline(int width, int height, int nowX, List<Row> rows, List<Tick> ticks) {
  public static final int LABEL_WIDTH = 190;
  public static final int ROW_HEIGHT = 28;
  public static final int BAR_HEIGHT = 16;
  public static final int TOP = 22;
  public static final int AXIS_HEIGHT = 30;
  public static final int RIGHT_MARGIN = 10;
  public static final int TICKS = 5;

  /** The narrowest span drawn, so that a key revoked or withdrawn within seconds still shows. */
  public static final int MIN_SPAN_WIDTH = 4;

  private static final Duration SHORTEST = Duration.ofHours(1);

  /** A key's row: its spans, with {@code y} the top of its bar and {@code textY} its baseline. */
  public record Row(String kid, String state, int y, int textY, List<Span> spans) {}

  /** A span of a key's life; {@code kind} is its CSS class. */
  public record Span(String kind, int x, int width, Instant from, Instant to) {}

  /** A date on the axis; {@code anchor} keeps the first and last labels inside the drawing. */
  public record Tick(int x, String label, String anchor) {}

  /** The bottom of the rows, where the axis is drawn. */
  public int axisY() {
    return height - AXIS_HEIGHT;
  }

  static KeyTimeline of(List<KeyStatus> keys, Instant now, int width) {
    List<KeyStatus> ordered =
        keys.stream()
            .sorted(
                Comparator.comparing((KeyStatus key) -> Instant.parse(key.createdAt()))
                    .thenComparing(KeyStatus::kid))
            .toList();
    Instant start =
        Stream.concat(Stream.of(now), ordered.stream().map(key -> Instant.parse(key.createdAt())))
            .min(Comparator.naturalOrder())
            .orElseThrow();
    Instant last =
        Stream.concat(
                Stream.of(now, start.plus(SHORTEST)), ordered.stream().flatMap(KeyTimeline::named))
            .max(Comparator.naturalOrder())
            .orElseThrow();
    Instant end = last.plus(Duration.between(start, last).dividedBy(10));
    Scale scale = new Scale(start, end, LABEL_WIDTH, width - RIGHT_MARGIN);
    List<Row> rows = new ArrayList<>();
    for (KeyStatus key : ordered) {
      int y = TOP + rows.size() * ROW_HEIGHT;
      rows.add(
          new Row(
              key.kid(),
              key.state(),
              y,
              y + BAR_HEIGHT - 3,
              spans(key, ordered, now, end).stream()
                  .filter(span -> span.from().isBefore(span.to()))
                  .map(scale::span)
                  .toList()));
    }
    return new KeyTimeline(
        width, TOP + rows.size() * ROW_HEIGHT + AXIS_HEIGHT, scale.x(now), rows, scale.ticks());
  }

  /** Every instant a key names. */
  private static Stream<Instant> named(KeyStatus key) {
    return Stream.of(key.createdAt(), key.activeFrom(), key.expiresAt())
        .filter(text -> text != null)
        .map(Instant::parse);
  }

  private static List<Interval> spans(
      KeyStatus key, List<KeyStatus> keys, Instant now, Instant end) {
    Instant created = Instant.parse(key.createdAt());
    if (key.isRevoked()) {
      return List.of(new Interval("revoked", created, now));
    }
    Instant active = Instant.parse(key.activeFrom());
    Optional<Instant> expires = expiresAt(key);
    Instant listedUntil = expires.orElse(end);
    Instant signingEnd = min(successorStart(key, keys).or(() -> expires).orElse(end), listedUntil);
    List<Interval> spans = new ArrayList<>();
    spans.add(new Interval("published", created, min(active, listedUntil)));
    spans.add(new Interval("signing", active, signingEnd));
    expires.ifPresent(until -> spans.add(new Interval("retiring", signingEnd, until)));
    return spans;
  }

  /**
   * When the next key that ever signs starts signing, if one is scheduled after this one: not a
   * revoked key, nor one withdrawn before it signed (an emergency rotation ends a scheduled key).
   */
  private static Optional<Instant> successorStart(KeyStatus key, List<KeyStatus> keys) {
    Instant active = Instant.parse(key.activeFrom());
    return keys.stream()
        .filter(KeyTimeline::signsAtAll)
        .map(other -> Instant.parse(other.activeFrom()))
        .filter(active::isBefore)
        .min(Comparator.naturalOrder());
  }

  private static boolean signsAtAll(KeyStatus key) {
    Instant active = Instant.parse(key.activeFrom());
    return !key.isRevoked() && expiresAt(key).map(active::isBefore).orElse(true);
  }

  private static Optional<Instant> expiresAt(KeyStatus key) {
    return Optional.ofNullable(key.expiresAt()).map(Instant::parse);
  }

  private static Instant min(Instant one, Instant other) {
    return one.isBefore(other) ? one : other;
  }

  private record Interval(String kind, Instant from, Instant to) {}

  /** Instants from {@code start} to {@code end} onto pixels from {@code left} to {@code right}. */
  private record Scale(Instant start, Instant end, int left, int right) {
    int x(Instant instant) {
      double share =
          (double) Duration.between(start, instant).toMillis()
              / Duration.between(start, end).toMillis();
      return left + (int) Math.round(Math.max(0, Math.min(1, share)) * (right - left));
    }

    Span span(Interval interval) {
      int from = x(interval.from());
      return new Span(
          interval.kind(),
          from,
          Math.max(MIN_SPAN_WIDTH, x(interval.to()) - from),
          interval.from(),
          interval.to());
    }

    /** {@link #TICKS} evenly spaced dates, as days when the axis spans several, else as times. */
    List<Tick> ticks() {
      Duration span = Duration.between(start, end);
      DateTimeFormatter format =
          DateTimeFormatter.ofPattern(
                  span.compareTo(Duration.ofDays(3)) > 0 ? "yyyy-MM-dd" : "MM-dd HH:mm")
              .withZone(ZoneOffset.UTC);
      List<Tick> ticks = new ArrayList<>();
      for (int i = 0; i < TICKS; i++) {
        Instant at = start.plus(span.multipliedBy(i).dividedBy(TICKS - 1));
        String anchor = i == 0 ? "start" : i == TICKS - 1 ? "end" : "middle";
        ticks.add(new Tick(x(at), format.format(at), anchor));
      }
      return ticks;
    }
  }
}
