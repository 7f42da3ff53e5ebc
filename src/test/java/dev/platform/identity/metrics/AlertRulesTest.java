package dev.platform.identity.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 20 §2: conf/prometheus checked and its alerts unit-tested by promtool (Debian package
 * {@code prometheus}), whose path {@code -Didentity.promtool} gives ({@code -Pservers} sets it);
 * without promtool, only that every alert has a test.
 */
class AlertRulesTest {
  static final String PROMTOOL = System.getProperty("identity.promtool", "promtool");

  static String promtool(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(PROMTOOL));
    command.addAll(List.of(arguments));
    Process process =
        new ProcessBuilder(command)
            .directory(new java.io.File("conf/prometheus"))
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("promtool took over a minute: " + output);
    }
    assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + output);
    return output;
  }

  @Test
  @EnabledIfSystemProperty(named = "identity.promtool", matches = ".+")
  void whenPromtoolChecksTheRulesThenTheyAreValid() throws Exception {
    promtool("check", "rules", "alerts.yml");
  }

  @Test
  @EnabledIfSystemProperty(named = "identity.promtool", matches = ".+")
  void whenPromtoolRunsTheUnitTestsThenEveryAlertPasses() throws Exception {
    promtool("test", "rules", "alerts-test.yml");
  }

  @Test
  @EnabledIfSystemProperty(named = "identity.promtool", matches = ".+")
  void whenPromtoolChecksTheExampleScrapeConfigThenItIsValid() throws Exception {
    promtool("check", "config", "--syntax-only", "prometheus.yml");
  }

  @Test
  void whenAnAlertIsDefinedThenAlertsTestExpectsItToFire() throws IOException {
    Set<String> alerts = names("alerts.yml", "- alert: (\\w+)");
    Set<String> firing = new TreeSet<>();
    String tests = Files.readString(Path.of("conf/prometheus/alerts-test.yml"));
    Matcher test =
        Pattern.compile("alertname: (\\w+)\\s+exp_alerts:\\s*\\n\\s+- exp_labels").matcher(tests);
    while (test.find()) {
      firing.add(test.group(1));
    }
    assertFalse(alerts.isEmpty());
    assertEquals(alerts, firing);
  }

  private static Set<String> names(String file, String pattern) throws IOException {
    Matcher name =
        Pattern.compile(pattern).matcher(Files.readString(Path.of("conf/prometheus", file)));
    Set<String> names = new TreeSet<>();
    while (name.find()) {
      names.add(name.group(1));
    }
    return names;
  }
}
