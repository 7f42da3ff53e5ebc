package dev.platform.identity.scope;

import java.util.List;

/**
 * What a token carries: the granted scopes (SPEC 2.5 {@code scopes} and {@code permissions}) and
 * the channel permissions they give ({@code channel_permissions}, {@code cs_permissions}).
 *
 * @param scopes the granted scopes, distinct, in the order requested (or allowed, when the request
 *     named none)
 * @param channels the channel patterns of those scopes
 */
public record GrantedScopes(List<String> scopes, ChannelGrant channels) {
  public GrantedScopes {
    scopes = List.copyOf(scopes);
  }

  /** The scopes as one space-separated string: RFC 6749 §5.1 {@code scope}, RFC 9068 claim. */
  public String spaceSeparated() {
    return String.join(" ", scopes);
  }
}
