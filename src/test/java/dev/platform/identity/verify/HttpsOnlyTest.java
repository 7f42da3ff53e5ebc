package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.client.TokenClient;
import java.net.URI;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SPEC 5.6 through every builder setting that takes the identity service's URL. */
class HttpsOnlyTest {
  /** Each setting by its name, as the refusal names it. */
  static final Map<String, Consumer<URI>> SETTINGS =
      Map.of(
          "baseUrl", url -> TokenClient.builder().baseUrl(url),
          "issuer", url -> RemotePublicKeys.builder().issuer(url),
          "keySetUri", url -> RemotePublicKeys.builder().keySetUri(url));

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://identity.example.com",
        "https://10.0.0.1:8443/base/",
        "https://127.0.0.1.nip.io",
        "HTTPS://Identity.Example.com"
      })
  void whenHttpsThenAnyHostIsAccepted(String url) {
    assertAll(eachSetting(setting -> assertDoesNotThrow(() -> setting.accept(URI.create(url)))));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://localhost:18620",
        "http://LOCALHOST/",
        "http://127.0.0.1:18620",
        "http://127.1.2.3",
        "http://127.255.255.255",
        "http://[::1]:18620/"
      })
  void whenHttpToALoopbackLiteralThenAccepted(String url) {
    assertAll(eachSetting(setting -> assertDoesNotThrow(() -> setting.accept(URI.create(url)))));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://example.com",
        "http://127.0.0.1.nip.io",
        "http://10.0.0.1",
        "http://[::2]",
        "http://0.0.0.0",
        "http://localhost.example.com",
        "http://app.localhost",
        "http://localhost.",
        "http://0127.0.0.1",
        "http://[::ffff:127.0.0.1]"
      })
  void whenHttpToAnyOtherHostThenRefusedNamingSettingSchemeAndHost(String url) {
    String host = URI.create(url).getHost();
    assertAll(
        eachRefusal(
            url,
            (name, message) ->
                assertTrue(
                    message.startsWith(name + " is refused: plain http is for a loopback host")
                        && message.contains("allowed: https to any host, or http to localhost")
                        && message.endsWith("got scheme \"http\", host \"" + host + "\""),
                    message)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://127.0.0.1/keys", "ws://localhost", "//127.0.0.1/"})
  void whenAnotherSchemeOrNoneThenRefused(String url) {
    assertAll(
        eachRefusal(
            url,
            (name, message) ->
                assertTrue(message.contains("the scheme is neither https nor http"), message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http:/oauth",
        "https:///api",
        "file:///etc/passwd",
        "http://under_score.example",
        "http://127.0.0.256"
      })
  void whenTheUrlHasNoHostThenRefused(String url) {
    assertAll(
        eachRefusal(
            url,
            (name, message) ->
                assertTrue(
                    message.contains("it has no host") && message.endsWith("host none"), message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://alice:s3cret@identity.example.com",
        "http://alice:s3cret@127.0.0.1:18620",
        "https://s3cret@identity.example.com",
        "http://alice:s3cret@under_score"
      })
  void whenTheUrlCarriesUserInfoThenRefusedWithoutShowingIt(String url) {
    assertAll(
        eachRefusal(
            url,
            (name, message) ->
                assertTrue(
                    message.contains("it carries user info (not shown)")
                        && !message.contains("alice")
                        && !message.contains("s3cret"),
                    message)));
  }

  @Test
  void whenRefusedThenTheMessageSaysWhatIsAllowed() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> HttpsOnly.check("baseUrl", URI.create("http://example.com:8080/x?token=t0k")));

    assertEquals(
        "baseUrl is refused: plain http is for a loopback host only; allowed: https to any host,"
            + " or http to localhost, 127.0.0.0/8 or [::1], with no user info (SPEC 5.6);"
            + " got scheme \"http\", host \"example.com\"",
        refused.getMessage());
  }

  @Test
  void whenTheIssuerIsRefusedThenBuildHasNoKeySetUrl() {
    RemotePublicKeys.Builder builder = RemotePublicKeys.builder();

    assertThrows(
        IllegalArgumentException.class, () -> builder.issuer(URI.create("http://example.com")));

    assertThrows(IllegalStateException.class, builder::build);
  }

  private static Stream<Executable> eachSetting(Consumer<Consumer<URI>> check) {
    return SETTINGS.values().stream().map(setting -> () -> check.accept(setting));
  }

  /**
   * Sets {@code url} through every setting, expecting a refusal that names the setting, whose
   * message {@code check} then takes.
   */
  private static Stream<Executable> eachRefusal(String url, BiConsumer<String, String> check) {
    return SETTINGS.entrySet().stream()
        .map(
            setting ->
                () -> {
                  IllegalArgumentException refused =
                      assertThrows(
                          IllegalArgumentException.class,
                          () -> setting.getValue().accept(URI.create(url)),
                          setting.getKey() + " took " + url);
                  assertTrue(
                      refused.getMessage().startsWith(setting.getKey() + " is refused: "),
                      refused.getMessage());
                  check.accept(setting.getKey(), refused.getMessage());
                });
  }
}
