package dev.platform.identity.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OptionsTest {
  static final Path WAR = Path.of("target/identity.war");

  @Test
  void whenNothingIsGivenThenLoopbackPort8080AndAFewThreadsPerCore() {
    Options options = Options.parse(new String[0], WAR);

    assertEquals("127.0.0.1", options.bind());
    assertEquals(8080, options.port());
    assertEquals(Math.max(8, 4 * Runtime.getRuntime().availableProcessors()), options.threads());
    assertEquals("http://127.0.0.1:8080", options.issuer());
    assertFalse(options.dpopNonces());
    assertFalse(options.virtualThreads());
  }

  @Test
  void whenVirtualThreadsAreGivenOnJava21ThenTheyAreOnAndThreadsStillCount() {
    Options options = Options.parse(new String[] {"--virtual-threads", "--threads", "16"}, WAR, 21);

    assertTrue(options.virtualThreads());
    assertEquals(16, options.threads());
  }

  @Test
  void whenVirtualThreadsAreGivenOnJava17ThenOneLineNamesTheJavaNeeded() {
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse(new String[] {"--virtual-threads"}, WAR, 17))
            .getMessage();

    assertEquals("--virtual-threads needs Java 21 or later; this is Java 17", message);
  }

  @Test
  void whenDpopNoncesIsGivenThenItIsOnAndTakesNoValue() {
    Options options = Options.parse(new String[] {"--dpop-nonces", "--port", "9000"}, WAR);

    assertTrue(options.dpopNonces());
    assertEquals(9000, options.port());
  }

  @Test
  void whenThreadsAndPortAreGivenThenTaken() {
    Options options = Options.parse(new String[] {"--threads", "200", "--port", "18490"}, WAR);

    assertEquals(200, options.threads());
    assertEquals(18490, options.port());
  }

  @Test
  void whenANumberIsOutOfRangeOrNotANumberThenTheMessageNamesTheOption() {
    String zero =
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse(new String[] {"--threads", "0"}, WAR))
            .getMessage();
    String text =
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse(new String[] {"--port", "http"}, WAR))
            .getMessage();

    assertEquals("--threads must be from 1 to 1000, not 0", zero);
    assertTrue(text.startsWith("--port must be a number"), text);
  }

  @Test
  void whenHelpIsAskedThenTheUsageNamesEveryOptionAndParseIsNotNeeded() {
    assertTrue(Options.asksForHelp(new String[] {"--help"}));
    assertTrue(Options.asksForHelp(new String[] {"--port", "9000", "-h"}));
    for (String option :
        new String[] {
          "--bind",
          "--port",
          "--data",
          "--context",
          "--war",
          "--tls-keystore",
          "--tls-keystore-password-file",
          "--trusted-proxy",
          "--tls-client-ca",
          "--dpop-nonces",
          "--virtual-threads"
        }) {
      assertTrue(Options.HELP.contains(option + " "), option);
    }
    assertTrue(Options.HELP.startsWith(Options.USAGE), Options.HELP);
  }

  @Test
  void whenHelpIsAnotherOptionsValueOrAbsentThenItIsNotAsked() {
    assertFalse(Options.asksForHelp(new String[] {"--data", "--help"}));
    assertFalse(Options.asksForHelp(new String[0]));
    assertFalse(Options.asksForHelp(new String[] {"--port", "9000"}));
  }

  @Test
  void whenAnUnknownOptionIsGivenThenItIsStillRefusedWithTheUsage() {
    String message =
        assertThrows(
                IllegalArgumentException.class, () -> Options.parse(new String[] {"--hepl"}, WAR))
            .getMessage();
    assertTrue(message.contains("unknown option --hepl") && message.contains(Options.USAGE));
  }

  @Test
  void whenTlsIsGivenThenBothFilesAreTakenAndTheIssuerIsHttps() {
    Options options =
        Options.parse(
            new String[] {
              "--tls-keystore", "server.p12", "--tls-keystore-password-file", "password"
            },
            WAR);

    assertEquals(Path.of("server.p12").toAbsolutePath(), options.tls().orElseThrow().file());
    assertEquals(Path.of("password").toAbsolutePath(), options.tls().orElseThrow().passwordFile());
    assertEquals("https://127.0.0.1:8080", options.issuer());
    assertTrue(Options.asksForHelp(new String[] {"--tls-keystore", "x.p12", "--help"}));
    assertFalse(Options.asksForHelp(new String[] {"--tls-keystore-password-file", "--help"}));
  }

  @Test
  void whenOnlyOneTlsFileIsGivenThenItIsRefused() {
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse(new String[] {"--tls-keystore", "server.p12"}, WAR))
            .getMessage();

    assertTrue(message.startsWith("--tls-keystore and --tls-keystore-password-file go together"));
  }

  @Test
  void whenTheTrustedProxyIsNoRegexThenTheMessageNamesTheOption() {
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse(new String[] {"--trusted-proxy", "10.0.0.(5"}, WAR))
            .getMessage();

    assertEquals(
        "--trusted-proxy must be a regular expression of addresses, not 10.0.0.(5", message);
    assertTrue(
        Options.parse(new String[] {"--trusted-proxy", "10\\.0\\.0\\.5"}, WAR)
            .trustedProxies()
            .orElseThrow()
            .matcher("10.0.0.5")
            .matches());
  }
}
