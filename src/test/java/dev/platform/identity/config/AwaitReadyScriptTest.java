package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * conf/payara/await-ready.sh refuses arguments that are not a URL, a log and whole seconds, so a
 * slip (or a hostile value) never reaches curl as an option: exit 2 and a usage line, at once.
 */
class AwaitReadyScriptTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''|two or three arguments, not 0",
        "-x log|URL must start with http:// or https://",
        "--config=/etc/passwd log|URL must start with http:// or https://",
        "file:///etc/passwd log|URL must start with http:// or https://",
        "http://127.0.0.1:1 log 1x|SECONDS must be a whole number of seconds",
        "http://127.0.0.1:1 log -5|SECONDS must be a whole number of seconds",
        "http://127.0.0.1:1 log 5 extra|two or three arguments, not 4",
      })
  void whenTheArgumentsAreWrongThenItExitsTwoWithAUsageLine(String arguments, String why)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("sh", "conf/payara/await-ready.sh"));
    if (!arguments.isEmpty()) {
      command.addAll(List.of(arguments.split(" ")));
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertTrue(process.waitFor(10, TimeUnit.SECONDS), "it answers at once");
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertEquals(2, process.exitValue(), output);
    assertTrue(output.contains("usage: sh await-ready.sh URL LOG [SECONDS]: " + why), output);
  }
}
