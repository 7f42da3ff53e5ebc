package dev.platform.identity.verify;

import java.util.List;

/**
 * SPEC 2.5 {@code channel_permissions} of a verified token: the channel patterns it may use per
 * action.
 *
 * @param subscribe patterns the token may subscribe to
 * @param publish patterns the token may publish to
 * @param replay patterns whose history the token may replay
 */
public record ChannelPermissions(
    List<String> subscribe, List<String> publish, List<String> replay) {
  /** No channel at all: a token without the claim. */
  public static final ChannelPermissions NONE =
      new ChannelPermissions(List.of(), List.of(), List.of());

  /** Copies the lists, so a value never changes. */
  public ChannelPermissions {
    subscribe = List.copyOf(subscribe);
    publish = List.copyOf(publish);
    replay = List.copyOf(replay);
  }
}
