package dev.platform.identity.hsm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 24: a SoftHSM2 token store of a test's own, in a folder under {@code target/} or a
 * {@code @TempDir}: its {@code softhsm2.conf} and token directory, and tokens initialised in it
 * with Debian's {@code softhsm2-util}. SoftHSM reads the file named by {@code SOFTHSM2_CONF} when
 * the module is initialised, so a process that opens these tokens gets {@link #environment()}.
 *
 * <p>The test tokens' PINs are fixed and go to {@code softhsm2-util} as arguments (it reads them
 * from a terminal otherwise): they guard throwaway tokens, never a deployment's keys.
 */
public final class SoftHsm {
  /** The system property {@code -Phsm} sets: the module's path. */
  public static final String LIBRARY_PROPERTY = "identity.softhsm.library";

  /** The user PIN of every test token. */
  public static final String PIN = "1234-test-pin";

  private static final String SO_PIN = "5678-test-so-pin";
  private static final Pattern SLOT = Pattern.compile("reassigned to slot (\\d+)");

  private final Path conf;
  private final Path tokens;

  private SoftHsm(Path conf, Path tokens) {
    this.conf = conf;
    this.tokens = tokens;
  }

  /** The module's path, when {@code -Phsm} set it. */
  public static Optional<Path> library() {
    String path = System.getProperty(LIBRARY_PROPERTY, "");
    return path.isBlank() ? Optional.empty() : Optional.of(Path.of(path));
  }

  /** The module's path; fails the test when {@code -Phsm} did not set it. */
  public static Path requiredLibrary() {
    return library()
        .orElseThrow(() -> new IllegalStateException(LIBRARY_PROPERTY + " is not set (-Phsm)"));
  }

  /** A token store in {@code folder}: {@code folder/softhsm2.conf} and {@code folder/tokens}. */
  public static SoftHsm in(Path folder) throws IOException {
    Path tokens = Files.createDirectories(folder.resolve("tokens"));
    Path conf = folder.resolve("softhsm2.conf");
    Files.writeString(
        conf,
        "directories.tokendir = "
            + tokens.toAbsolutePath()
            + "\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n",
        StandardCharsets.UTF_8);
    return new SoftHsm(conf.toAbsolutePath(), tokens.toAbsolutePath());
  }

  /** Initialises a new token labelled {@code label} in the first free slot; returns its slot id. */
  public Token initToken(String label) throws IOException, InterruptedException {
    String output =
        run(
            List.of(
                "softhsm2-util",
                "--init-token",
                "--free",
                "--label",
                label,
                "--pin",
                PIN,
                "--so-pin",
                SO_PIN));
    Matcher slot = SLOT.matcher(output);
    if (!slot.find()) {
      throw new IllegalStateException("softhsm2-util did not say the slot: " + output);
    }
    return new Token(label, Long.parseLong(slot.group(1)));
  }

  /** What a process needs in its environment to open these tokens. */
  public Map<String, String> environment() {
    return Map.of("SOFTHSM2_CONF", conf.toString());
  }

  public Path conf() {
    return conf;
  }

  /** The token directory: moving it away makes the tokens unavailable to a running process. */
  public Path tokens() {
    return tokens;
  }

  private String run(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment());
    Process process = builder.start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException(
          String.join(" ", command.subList(0, 2))
              + " failed: "
              + new String(output, StandardCharsets.UTF_8));
    }
    return new String(output, StandardCharsets.UTF_8);
  }

  /** A token: its label and the slot id SoftHSM gave it (it changes when re-initialised). */
  public record Token(String label, long slot) {}
}
