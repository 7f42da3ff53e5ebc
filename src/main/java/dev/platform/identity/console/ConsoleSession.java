package dev.platform.identity.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One signed-in operator, as the sealed cookie carries it: the administrator token the login
 * obtained from the token endpoint, which every request presents to {@code AdminAuth} as the API's
 * callers present theirs; the CSRF token of its forms; and its times. It ends at the token's
 * expiry, after the idle timeout without a request, or at logout.
 *
 * @param id random, names the session in the table of ended sessions
 * @param csrf random, the value every form of the session posts back
 * @param token the compact access token
 * @param expiresAt the token's {@code exp}: the session's absolute end
 * @param seenAt its last request
 */
record ConsoleSession(String id, String csrf, String token, Instant expiresAt, Instant seenAt) {
  private static final Pattern RANDOM = Pattern.compile("[A-Za-z0-9_-]{43}");
  private static final Pattern JWT =
      Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

  /** A new session for {@code token}, which expires at {@code expiresAt}. */
  static ConsoleSession start(String token, Instant expiresAt, Instant now, SecureRandom random) {
    return new ConsoleSession(random(random), random(random), token, expiresAt, now);
  }

  /** 32 random bytes, base64url without padding: 43 characters. */
  static String random(SecureRandom random) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Whether it still holds at {@code now}: before its token's expiry and within the idle time. */
  boolean isLiveAt(Instant now, Duration idleTimeout) {
    return now.isBefore(expiresAt) && !now.isAfter(seenAt.plus(idleTimeout));
  }

  ConsoleSession seenAt(Instant now) {
    return new ConsoleSession(id, csrf, token, expiresAt, now);
  }

  /** Whether {@code given} is this session's CSRF token, compared in constant time. */
  boolean isCsrf(String given) {
    return given != null
        && MessageDigest.isEqual(
            csrf.getBytes(StandardCharsets.US_ASCII), given.getBytes(StandardCharsets.US_ASCII));
  }

  byte[] bytes() {
    return String.join(
            " ",
            id,
            csrf,
            Long.toString(expiresAt.getEpochSecond()),
            Long.toString(seenAt.getEpochSecond()),
            token)
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** The session {@link #bytes} wrote, or empty for anything else. */
  static Optional<ConsoleSession> of(byte[] bytes) {
    String[] parts = new String(bytes, StandardCharsets.US_ASCII).split(" ", -1);
    if (parts.length != 5
        || !RANDOM.matcher(parts[0]).matches()
        || !RANDOM.matcher(parts[1]).matches()
        || !parts[2].matches("[0-9]{1,12}")
        || !parts[3].matches("[0-9]{1,12}")
        || !JWT.matcher(parts[4]).matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new ConsoleSession(
            parts[0],
            parts[1],
            parts[4],
            Instant.ofEpochSecond(Long.parseLong(parts[2])),
            Instant.ofEpochSecond(Long.parseLong(parts[3]))));
  }

  @Override
  public String toString() {
    return "ConsoleSession[id=" + id + ", expiresAt=" + expiresAt + ", seenAt=" + seenAt + "]";
  }
}
