package dev.platform.identity.scope;

import dev.platform.identity.audit.CallerText;
import java.util.Optional;

/**
 * A scope that cannot be granted or defined: malformed, not in the catalog, not allowed for the
 * client, or an invalid definition. The message names the scope and says why; it never quotes with
 * {@code "}, so it fits an OAuth {@code error_description} (the token endpoint answers {@code
 * invalid_scope}, the admin API 400).
 */
public final class InvalidScopeException extends RuntimeException {
  private final String scope;

  private InvalidScopeException(String scope, String message) {
    super(message, null, false, false);
    this.scope = scope;
  }

  /** {@code scope} fails because of {@code problem}, such as "does not exist". */
  static InvalidScopeException of(String scope, String problem) {
    return new InvalidScopeException(
        scope, "scope '" + CallerText.shortened(scope) + "' " + problem);
  }

  /** The request names no scope and none can be granted by default (RFC 6749 §3.3). */
  static InvalidScopeException noneGrantable() {
    return new InvalidScopeException(null, "no scope may be granted to this client");
  }

  /** The scope that failed, as given; empty when no particular scope is at fault. */
  Optional<String> scope() {
    return Optional.ofNullable(scope);
  }
}
