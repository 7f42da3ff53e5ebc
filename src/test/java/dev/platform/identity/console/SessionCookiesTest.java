package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionCookiesTest {
  static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  final SessionKeys keys = new SessionKeys(SessionKeysTest.key(7), List.of(), new SecureRandom());
  final ConsoleSession session =
      ConsoleSession.start(
          ConsoleSessionTest.KEY,
          ConsoleSessionTest.TOKEN,
          NOW.plusSeconds(3600),
          NOW,
          new SecureRandom());

  @Test
  void whenTheIssuerIsHttpsThenTheCookiesAreSecureHostCookiesOfTheWholeHost() {
    SessionCookies cookies = new SessionCookies(keys, URI.create("https://id.example.com"));
    String set = cookies.set(session, "/identity");
    assertTrue(set.startsWith("__Host-identity-console="), set);
    // RFC 6265bis §4.1.3.2: a __Host- cookie must have Path=/, Secure and no Domain.
    assertTrue(set.contains("; Path=/;"), set);
    assertTrue(set.endsWith("; HttpOnly; SameSite=Strict; Secure"), set);
    assertFalse(set.contains("Domain"), set);
    assertFalse(set.contains(ConsoleSessionTest.TOKEN), "sealed, not readable");
    String login = cookies.loginNonce("n", NOW, "/identity").cookie();
    assertTrue(login.startsWith("__Host-identity-console-login="), login);
    assertTrue(login.contains("; Max-Age=1800;"), login);
  }

  @Test
  void whenTheIssuerIsLoopbackHttpThenTheCookiesKeepToTheConsolesPath() {
    SessionCookies cookies = new SessionCookies(keys, URI.create("http://127.0.0.1:8080"));
    String set = cookies.set(session, "");
    assertTrue(set.startsWith("identity-console="), set);
    assertTrue(set.endsWith("; Path=/console; HttpOnly; SameSite=Strict"), set);
    assertEquals(
        "identity-console=; Path=/app/console; Max-Age=0; HttpOnly; SameSite=Strict",
        cookies.clear(SessionCookies.SESSION, "/app"));
  }

  /**
   * The session's DPoP key rides in the sealed cookie (issue 40): its 128 characters leave room for
   * a token of 2,000 characters, longer than an administrator's RS256 token, within the 4,096 bytes
   * every browser keeps of a cookie (RFC 6265 §6.1).
   */
  @Test
  void whenTheSessionCarriesItsKeyThenTheCookieStaysWithinWhatBrowsersKeep() {
    String token = "eyJ" + "a".repeat(1000) + "." + "b".repeat(650) + "." + "c".repeat(342);
    ConsoleSession large =
        ConsoleSession.start(
            ConsoleSessionTest.KEY, token, NOW.plusSeconds(3600), NOW, new SecureRandom());
    String set = new SessionCookies(keys, URI.create("https://id.example.com")).set(large, "");
    assertTrue(set.length() < 4096, set.length() + " characters");
    assertFalse(set.contains(ConsoleSessionTest.KEY.encoded()), "sealed, not readable");
  }
}
