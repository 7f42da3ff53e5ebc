package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Security review F1: the secret goes only into a file the stage itself created, owner-only. */
class CredentialsFileTest {
  static final String SECRET = "client_secret=never-elsewhere-4711\n";

  @TempDir Path folder;

  @Test
  void whenALinkSitsAtTheStagedNameThenNothingIsWrittenThroughIt() throws IOException {
    Path victim = Files.writeString(folder.resolve("victim"), "theirs");
    Path staged = Files.createSymbolicLink(folder.resolve(".identity-x.tmp"), victim);

    assertThrows(
        UncheckedIOException.class,
        () -> CredentialsFile.stage(folder.resolve("admin.txt"), SECRET, staged));

    assertEquals("theirs", Files.readString(victim));
    assertTrue(Files.isSymbolicLink(staged), "another's link is left as it was");
  }

  @Test
  void whenAFileSitsAtTheStagedNameThenItIsNeitherTruncatedNorWritten() throws IOException {
    Path staged = Files.writeString(folder.resolve(".identity-x.tmp"), "theirs");
    Files.setPosixFilePermissions(staged, PosixFilePermissions.fromString("rw-r--r--"));

    assertThrows(
        UncheckedIOException.class,
        () -> CredentialsFile.stage(folder.resolve("admin.txt"), SECRET, staged));

    assertEquals("theirs", Files.readString(staged));
  }

  @Test
  void whenStagedAndPublishedThenTheTargetIsOwnerOnlyFromTheStart() throws IOException {
    Path target = folder.resolve("admin.txt");
    Path staged = folder.resolve(".identity-x.tmp");

    CredentialsFile credentials = CredentialsFile.stage(target, SECRET, staged);
    String stagedMode = PosixFilePermissions.toString(Files.getPosixFilePermissions(staged));
    credentials.publish();

    assertEquals("rw-------", stagedMode);
    assertEquals(SECRET, Files.readString(target));
    assertTrue(Files.notExists(staged));
  }
}
