package dev.platform.identity.scope;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * SPEC 2.5 {@code channel_permissions} as the service grants them: the channel patterns a token may
 * use per action. Each list is sorted and distinct, so equal grants give byte-identical claims.
 * (The library's {@code verify.ChannelPermissions} is the same claim as a verified token carries
 * it.)
 *
 * @param subscribe patterns the token may subscribe to
 * @param publish patterns the token may publish to
 * @param replay patterns whose history the token may replay
 */
public record ChannelGrant(List<String> subscribe, List<String> publish, List<String> replay) {
  /** No channel at all. */
  public static final ChannelGrant NONE = new ChannelGrant(List.of(), List.of(), List.of());

  public ChannelGrant {
    subscribe = sortedDistinct(subscribe.stream());
    publish = sortedDistinct(publish.stream());
    replay = sortedDistinct(replay.stream());
  }

  /** Every pattern of every one of {@code permissions}, per action. */
  public static ChannelGrant union(Collection<ChannelGrant> permissions) {
    return new ChannelGrant(
        sortedDistinct(permissions.stream().flatMap(p -> p.subscribe().stream())),
        sortedDistinct(permissions.stream().flatMap(p -> p.publish().stream())),
        sortedDistinct(permissions.stream().flatMap(p -> p.replay().stream())));
  }

  private static List<String> sortedDistinct(Stream<String> patterns) {
    return List.copyOf(new TreeSet<>(patterns.map(Objects::requireNonNull).toList()));
  }
}
