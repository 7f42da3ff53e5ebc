package dev.platform.identity.verify.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.StubServer;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 38 item 5: a filter declared in {@code web.xml} checks the issuer's revocation feed when
 * its init-param {@code revocations} is {@code true}, with the feed's options as init-params; a
 * wrong one fails {@code init}, naming it.
 */
class BearerTokenFilterRevocationsTest {
  StubServer feed;
  final BearerTokenFilter filter = new BearerTokenFilter();

  @BeforeEach
  void start() throws IOException {
    feed =
        StubServer.start(
            "/oauth/revocations",
            request ->
                new StubServer.Reply(
                    200,
                    Map.of("ETag", "\"v1\""),
                    "{\"issuer\":\"" + feed.uri() + "\",\"tokens\":[],\"accounts\":[]}"));
  }

  @AfterEach
  void stop() {
    filter.destroy();
    feed.close();
  }

  Map<String, String> params(String... pairs) {
    Map<String, String> params = new HashMap<>(Map.of("issuer", feed.uri().toString()));
    for (int i = 0; i < pairs.length; i += 2) {
      params.put(pairs[i], pairs[i + 1]);
    }
    return params;
  }

  @Test
  void whenRevocationsAreOnThenInitPollsTheFeedOnce() throws ServletException {
    filter.init(
        config(
            params(
                "revocations", "true",
                "revocationRefreshInterval", "PT1H",
                "revocationMaxStaleness", "PT2H",
                "revocationOnStale", "fail-closed")));

    assertEquals(1, feed.requests());
  }

  @Test
  void whenRevocationsAreNotAskedForThenNoFeedIsPolled() throws ServletException {
    filter.init(config(params()));

    assertEquals(0, feed.requests());
  }

  @ParameterizedTest
  @CsvSource({
    "revocations, yes, revocations",
    "revocationRefreshInterval, 5s, revocationRefreshInterval",
    "revocationMaxStaleness, 300, revocationMaxStaleness",
    "revocationOnStale, refuse, revocationOnStale",
    "revocationMaxStaleness, PT1S, maximum staleness",
  })
  void whenARevocationParamIsWrongThenInitFailsNamingIt(String name, String value, String named) {
    Map<String, String> params = params("revocations", "true", name, value);

    ServletException e = assertThrows(ServletException.class, () -> filter.init(config(params)));

    assertTrue(e.getMessage().contains(named), e.getMessage());
  }

  static FilterConfig config(Map<String, String> params) {
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return "bearer";
      }

      @Override
      public ServletContext getServletContext() {
        return null;
      }

      @Override
      public String getInitParameter(String name) {
        return params.get(name);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
      }
    };
  }
}
