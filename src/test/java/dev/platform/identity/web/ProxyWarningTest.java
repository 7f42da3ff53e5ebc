package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.TestSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProxyWarningTest {
  final LogCapture log = LogCapture.of(ProxyWarning.class.getName());

  @AfterEach
  void release() {
    log.close();
  }

  @Test
  void whenAnHttpsIssuerTrustsNoProxyThenOneWarningNamesTheSetting() {
    logIfNoProxyIsTrusted(Map.of());

    List<String> messages = log.messages();
    assertEquals(1, messages.size(), messages.toString());
    assertTrue(
        messages.get(0).startsWith("java:comp/env/identity/trustedProxies is empty"),
        messages.get(0));
    assertTrue(messages.get(0).contains("one failure budget"), messages.get(0));
  }

  @Test
  void whenAProxyIsTrustedThenNoWarning() {
    logIfNoProxyIsTrusted(Map.of(JndiSettings.TRUSTED_PROXIES, "127.0.0.1,::1"));

    assertEquals(List.of(), log.messages());
  }

  @Test
  void whenTheIssuerIsHttpOnLoopbackThenNoWarning() {
    logIfNoProxyIsTrusted(Map.of(JndiSettings.ISSUER, "http://127.0.0.1:8080"));

    assertEquals(List.of(), log.messages());
  }

  /** The warning, for the test settings with {@code entries} replaced. */
  static void logIfNoProxyIsTrusted(Map<String, String> entries) {
    Settings settings = TestSettings.with(entries);
    ProxyWarning.logIfNoProxyIsTrusted(settings.tokens(), settings.limits());
  }
}
