package dev.platform.identity.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.tls.TestPki;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 39: the launcher's key store is checked at start, each mistake named in one line. */
class ServerKeyStoreTest {
  @TempDir Path folder;

  Path store(String password) throws Exception {
    Path file = folder.resolve("server.p12");
    try (OutputStream out = Files.newOutputStream(file)) {
      TestPki.authority("CA")
          .server()
          .keyStore("server", password.toCharArray())
          .store(out, password.toCharArray());
    }
    return file;
  }

  Path passwordFile(String password, String mode) throws Exception {
    Path file = folder.resolve("password");
    Files.writeString(file, password + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }

  String failure(ServerKeyStore keyStore) {
    return assertThrows(IllegalStateException.class, keyStore::open).getMessage();
  }

  @Test
  void whenTheStoreAndOwnerOnlyPasswordMatchThenItOpensWithoutTheNewline() throws Exception {
    ServerKeyStore.Opened opened =
        new ServerKeyStore(store("right"), passwordFile("right", "rw-------")).open();

    assertEquals("right", opened.password());
    assertTrue(opened.store().isKeyEntry("server"));
  }

  @Test
  void whenThePasswordIsWrongThenTheMessageSaysSoAndNamesBothFiles() throws Exception {
    Path store = store("right");
    Path password = passwordFile("wrong", "rw-------");

    String message = failure(new ServerKeyStore(store, password));

    assertEquals("--tls-keystore " + store + ": wrong password in " + password, message);
  }

  @Test
  void whenTheStoreIsMissingOrNotPkcs12ThenTheMessageNamesIt() throws Exception {
    Path password = passwordFile("right", "rw-------");
    Path missing = folder.resolve("missing.p12");
    Path garbage = Files.writeString(folder.resolve("garbage.p12"), "not a key store");

    assertEquals(
        "--tls-keystore " + missing + " does not exist",
        failure(new ServerKeyStore(missing, password)));
    assertTrue(
        failure(new ServerKeyStore(garbage, password)).startsWith("--tls-keystore " + garbage));
  }

  @Test
  void whenOthersMayReadThePasswordFileThenItIsRefusedUnread() throws Exception {
    String message =
        failure(new ServerKeyStore(store("right"), passwordFile("right", "rw-r--r--")));

    assertTrue(message.contains("rw-r--r--") && message.contains("chmod 600"), message);
  }
}
