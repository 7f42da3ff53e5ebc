package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WAR in the kit's cache is the kit's WAR, whatever was left at its name. */
class ServiceProcessTest {
  static final byte[] WAR = "the kit's WAR".getBytes(StandardCharsets.UTF_8);

  @TempDir Path cache;

  @Test
  void whenTheCacheIsEmptyThenTheWarIsCopiedUnderItsHash() throws Exception {
    Path war = ServiceProcess.cached(cache, WAR);
    assertArrayEquals(WAR, Files.readAllBytes(war));
    assertEquals(
        "identity-" + ClassDataArchive.sha256(WAR).substring(0, 16) + ".war",
        war.getFileName().toString());
  }

  @Test
  void whenAnotherFileHasTheWarsNameThenItIsReplaced() throws Exception {
    Path name = ServiceProcess.cached(cache, WAR);
    Files.writeString(name, "a WAR of someone else's, or half of one");
    Path war = ServiceProcess.cached(cache, WAR);
    assertEquals(name, war);
    assertArrayEquals(WAR, Files.readAllBytes(war));
  }

  @Test
  void whenALinkHasTheWarsNameThenItIsReplacedAndItsTargetUntouched() throws Exception {
    Path elsewhere = Files.writeString(cache.resolve("elsewhere.war"), "another WAR");
    Path name = ServiceProcess.cached(cache, WAR);
    Files.delete(name);
    Files.createSymbolicLink(name, elsewhere);
    Path war = ServiceProcess.cached(cache, WAR);
    assertFalse(Files.isSymbolicLink(war));
    assertArrayEquals(WAR, Files.readAllBytes(war));
    assertEquals("another WAR", Files.readString(elsewhere));
    try (var files = Files.list(cache)) {
      assertEquals(
          0, files.filter(f -> f.toString().endsWith(".part")).count(), "no staged copy is left");
    }
  }
}
