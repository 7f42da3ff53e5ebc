package dev.platform.identity.web;

/**
 * What {@link Startup} throws to stop the deployment once it has logged why: the reason alone,
 * without a cause or a stack, since the container logs it again in full.
 */
final class CannotStartException extends RuntimeException {
  CannotStartException(String reason) {
    super(reason, null, false, false);
  }
}
