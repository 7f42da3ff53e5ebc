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
 * obtained from the token endpoint, bound to the session's own DPoP key, which every request
 * presents to {@code AdminAuth} as the API's DPoP callers present theirs, with a proof by that key;
 * the CSRF token of its forms; and its times. It ends at the token's expiry, after the idle timeout
 * without a request, or at logout.
 *
 * @param id random, names the session in the table of ended sessions
 * @param csrf random, the value every form of the session posts back
 * @param key the session's DPoP key, to which {@code token} is bound
 * @param token the compact access token
 * @param expiresAt the token's {@code exp}: the session's absolute end
 * @param seenAt its last request
 */
record ConsoleSession(
    String id, String csrf, SessionKey key, String token, Instant expiresAt, Instant seenAt) {
  private static final Pattern RANDOM = Pattern.compile("[A-Za-z0-9_-]{43}");
  private static final Pattern JWT =
      Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

  /** A new session for {@code token}, bound to {@code key}, which expires at {@code expiresAt}. */
  static ConsoleSession start(
      SessionKey key, String token, Instant expiresAt, Instant now, SecureRandom random) {
    return new ConsoleSession(random(random), random(random), key, token, expiresAt, now);
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
    return new ConsoleSession(id, csrf, key, token, expiresAt, now);
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
            key.encoded(),
            token)
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** The session {@link #bytes} wrote, or empty for anything else. */
  static Optional<ConsoleSession> of(byte[] bytes) {
    String[] parts = new String(bytes, StandardCharsets.US_ASCII).split(" ", -1);
    if (parts.length != 6
        || !RANDOM.matcher(parts[0]).matches()
        || !RANDOM.matcher(parts[1]).matches()
        || !parts[2].matches("[0-9]{1,12}")
        || !parts[3].matches("[0-9]{1,12}")
        || !JWT.matcher(parts[5]).matches()) {
      return Optional.empty();
    }
    return SessionKey.of(parts[4])
        .map(
            key ->
                new ConsoleSession(
                    parts[0],
                    parts[1],
                    key,
                    parts[5],
                    Instant.ofEpochSecond(Long.parseLong(parts[2])),
                    Instant.ofEpochSecond(Long.parseLong(parts[3]))));
  }

  @Override
  public String toString() {
    return "ConsoleSession[id=" + id + ", expiresAt=" + expiresAt + ", seenAt=" + seenAt + "]";
  }
}
