package dev.platform.identity.console;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Cookie;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The console's two cookies, sealed by {@link SessionKeys}: the session, and the login form's
 * nonce, which a login must post back (double submit: a page of another site can neither read it
 * nor, with {@code SameSite=Strict}, have the browser send it).
 *
 * <p>Both are {@code HttpOnly} and {@code SameSite=Strict}. On an https issuer they are {@code
 * Secure} and named with the {@code __Host-} prefix, which RFC 6265bis §4.1.3.2 grants only to a
 * cookie with {@code Path=/}: so there the path is {@code /}, not {@code /console} (README
 * "Console" says why). On a loopback http issuer, where a browser refuses {@code Secure}, the path
 * is the console's.
 */
final class SessionCookies {
  static final String SESSION = "identity-console";
  static final String LOGIN = "identity-console-login";
  private static final Duration LOGIN_FORM_LIFETIME = Duration.ofMinutes(30);

  private final SessionKeys keys;
  private final boolean secure;

  SessionCookies(SessionKeys keys, URI issuer) {
    this.keys = keys;
    this.secure = "https".equals(issuer.getScheme());
  }

  /** The cookie's name on this issuer. */
  String name(String cookie) {
    return secure ? "__Host-" + cookie : cookie;
  }

  /** The session the request's cookie carries, if this service sealed it; not yet judged. */
  Optional<ConsoleSession> session(ContainerRequestContext request) {
    return value(request, SESSION)
        .flatMap(value -> keys.open(name(SESSION), value))
        .flatMap(ConsoleSession::of);
  }

  /** The {@code Set-Cookie} value that keeps {@code session}; it ends with the browser. */
  String set(ConsoleSession session, String contextPath) {
    return header(SESSION, keys.seal(name(SESSION), session.bytes()), contextPath, null);
  }

  /** The {@code Set-Cookie} value that removes the cookie {@code cookie}. */
  String clear(String cookie, String contextPath) {
    return header(cookie, "", contextPath, Duration.ZERO);
  }

  /** A new login nonce: its value for the form, and its sealed cookie. */
  record LoginNonce(String value, String cookie) {}

  LoginNonce loginNonce(String value, Instant now, String contextPath) {
    String plain = value + " " + now.plus(LOGIN_FORM_LIFETIME).getEpochSecond();
    String sealed =
        keys.seal(name(LOGIN), plain.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    return new LoginNonce(value, header(LOGIN, sealed, contextPath, LOGIN_FORM_LIFETIME));
  }

  /** The nonce of the request's login cookie, while the login form it came with is fresh. */
  Optional<String> loginNonce(ContainerRequestContext request, Instant now) {
    return value(request, LOGIN)
        .flatMap(value -> keys.open(name(LOGIN), value))
        .map(bytes -> new String(bytes, java.nio.charset.StandardCharsets.US_ASCII).split(" "))
        .filter(parts -> parts.length == 2 && parts[1].matches("[0-9]{1,12}"))
        .filter(parts -> now.getEpochSecond() < Long.parseLong(parts[1]))
        .map(parts -> parts[0]);
  }

  private Optional<String> value(ContainerRequestContext request, String cookie) {
    Cookie found = request.getCookies().get(name(cookie));
    return Optional.ofNullable(found).map(Cookie::getValue).filter(value -> !value.isEmpty());
  }

  private String header(String cookie, String value, String contextPath, Duration maxAge) {
    StringBuilder header = new StringBuilder(name(cookie)).append('=').append(value);
    header.append("; Path=").append(secure ? "/" : contextPath + ConsoleAuth.ROOT);
    if (maxAge != null) {
      header.append("; Max-Age=").append(maxAge.toSeconds());
    }
    header.append("; HttpOnly; SameSite=Strict");
    if (secure) {
      header.append("; Secure");
    }
    return header.toString();
  }
}
