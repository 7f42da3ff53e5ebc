package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.hsm.SoftHsm;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: what goes wrong with the HSM. A wrong setting stops the start, naming the setting and
 * never printing the PIN; the token label needs the wrapper's export; a token lost while running
 * fails token requests and readiness until a restart.
 */
@EnabledIfSystemProperty(named = SoftHsm.LIBRARY_PROPERTY, matches = ".+")
class HsmFaultsIT {
  static final String WRONG_PIN = "9999-wrong-pin";

  @TempDir Path folder;
  SoftHsm hsm;
  SoftHsm.Token token;

  @BeforeEach
  void token() throws Exception {
    hsm = SoftHsm.in(folder.resolve("hsm"));
    token = hsm.initToken("identity");
  }

  /** A start that must fail: its context entries, the JVM options, what its output must name. */
  record Fault(String name, Map<String, String> entries, List<String> jvm, List<String> named) {}

  /**
   * Each case on a launcher of its own, all started at once (each start costs seconds): each stops
   * without listening, exits non-zero, names the setting and prints no PIN.
   */
  @Test
  void whenAnHsmSettingIsWrongThenTheStartStopsNamingIt() throws Exception {
    List<Fault> faults =
        List.of(
            new Fault(
                "wrong PIN",
                with(e -> e.put("identity/pkcs11Pin", WRONG_PIN)),
                List.of(),
                List.of("identity/pkcs11Pin", "CKR_PIN_INCORRECT")),
            new Fault(
                "missing library",
                with(
                    e ->
                        e.put(
                            "identity/pkcs11Library",
                            folder.resolve("no-such/libpkcs11.so").toString())),
                List.of(),
                List.of("identity/pkcs11Library")),
            new Fault(
                "relative library",
                with(e -> e.put("identity/pkcs11Library", "libsofthsm2.so")),
                List.of(),
                List.of("identity/pkcs11Library")),
            new Fault(
                "unknown slot",
                with(e -> e.put("identity/pkcs11Slot", "987654")),
                List.of(),
                List.of("identity/pkcs11Slot")),
            new Fault(
                "pkcs11 without a library",
                with(e -> e.remove("identity/pkcs11Library")),
                List.of(),
                List.of("identity/pkcs11Library")),
            new Fault(
                "label without the export",
                byLabel(),
                List.of(),
                List.of("identity/pkcs11TokenLabel")));
    List<HsmNode> nodes = new ArrayList<>();
    try {
      for (Fault fault : faults) {
        nodes.add(start(fault.name().replace(' ', '-'), fault.entries(), fault.jvm()));
      }
      List<Executable> checks = new ArrayList<>();
      for (int i = 0; i < faults.size(); i++) {
        Fault fault = faults.get(i);
        HsmNode node = nodes.get(i);
        checks.add(() -> assertStoppedNaming(fault, node));
      }
      assertAll(checks);
    } finally {
      for (HsmNode node : nodes) {
        node.close();
      }
    }
  }

  static void assertStoppedNaming(Fault fault, HsmNode node) throws Exception {
    assertFalse(node.awaitReady(), fault.name() + " listens:\n" + node.output());
    boolean ended = node.launched.process.waitFor(60, TimeUnit.SECONDS);
    String output = fault.name() + ":\n" + node.output();
    assertTrue(ended, output);
    assertNotEquals(0, node.launched.process.exitValue(), output);
    for (String named : fault.named()) {
      assertTrue(node.output().contains(named), "names " + named + " - " + output);
    }
    assertFalse(node.output().contains(SoftHsm.PIN), "prints the PIN - " + output);
    assertFalse(node.output().contains(WRONG_PIN), "prints the PIN - " + output);
  }

  /**
   * The token named by its label (with the export it needs) signs; moved away while the service
   * runs, token requests get 500 and readiness 503 until the token is back and the service
   * restarted.
   */
  @Test
  void whenTheTokenIsNamedByLabelAndLostWhileRunningThenRequestsFailUntilARestart()
      throws Exception {
    Map<String, String> entries = byLabel();
    Path away = folder.resolve("tokens-away");
    HsmNode.Credentials admin;
    String kid;
    try (HsmNode node = start("label", entries, List.of(HsmNode.WRAPPER_EXPORTS))) {
      assertTrue(node.awaitReady(), node.output());
      HsmIT.assertSigningKeyUp(node);
      admin = node.printedAdmin();
      String issued = node.token(admin);
      kid = HsmNode.kid(issued);
      node.assertVerifies(issued, admin.id());
      HsmIT.assertInTokenOnly(hsm, token, kid);

      Files.move(hsm.tokens(), away);
      assertTrue(
          HsmNode.eventually(
              () -> node.tokenResponse(admin).statusCode() == 500, Duration.ofSeconds(10)),
          "a token request fails once the token is gone");
      HttpResponse<String> failed = node.tokenResponse(admin);
      assertEquals(500, failed.statusCode(), failed.body());
      assertEquals("server_error", Http.json(failed).path("error").asText(), failed.body());
      assertTrue(
          HsmNode.eventually(() -> node.readiness().statusCode() == 503, Duration.ofSeconds(10)),
          "readiness fails once the token is gone");
      HttpResponse<String> down = node.readiness();
      JsonNode health = Http.json(down);
      assertEquals("DOWN", health.path("status").asText(), down.body());
      assertEquals("DOWN", health.path("signing_key").asText(), down.body());
      assertTrue(health.path("problem").asText().contains("restart required"), down.body());
      assertFalse(node.output().contains(SoftHsm.PIN), "the PIN is never logged");
    } finally {
      if (Files.exists(away)) {
        Files.move(away, hsm.tokens());
      }
    }

    try (HsmNode restarted = start("label", entries, List.of(HsmNode.WRAPPER_EXPORTS))) {
      assertTrue(restarted.awaitReady(), restarted.output());
      HsmIT.assertSigningKeyUp(restarted);
      String issued = restarted.token(admin);
      assertEquals(kid, HsmNode.kid(issued), "the token's key signs again");
      restarted.assertVerifies(issued, admin.id());
    }
  }

  /** The token's entries with {@code change} applied. */
  Map<String, String> with(Consumer<Map<String, String>> change) {
    Map<String, String> entries = HsmNode.tokenEntries(token);
    change.accept(entries);
    return entries;
  }

  /** The token found by its label instead of its slot. */
  Map<String, String> byLabel() {
    return with(
        e -> {
          e.remove("identity/pkcs11Slot");
          e.put("identity/pkcs11TokenLabel", token.label());
        });
  }

  /** A launcher on data folder {@code name} with a context file of {@code entries}. */
  HsmNode start(String name, Map<String, String> entries, List<String> jvm) throws Exception {
    Path context = HsmNode.context(folder.resolve(name + ".xml"), entries);
    return HsmNode.start(hsm, folder.resolve(name), context, jvm.toArray(String[]::new));
  }
}
