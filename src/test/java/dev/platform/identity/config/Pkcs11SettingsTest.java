package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 24: {@code identity/keyStore} and the {@code identity/pkcs11*} settings. */
class Pkcs11SettingsTest {
  private static final String PIN = "a-pin-nobody-may-see-4711";

  @TempDir Path folder;

  private Path module() throws IOException {
    return Files.writeString(folder.resolve("libmodule.so"), "not really a module");
  }

  private Map<String, Object> token() throws IOException {
    Map<String, Object> entries = TestSettings.entries();
    entries.put(JndiSettings.KEY_STORE, "pkcs11");
    entries.put(JndiSettings.PKCS11_LIBRARY, module().toString());
    entries.put(JndiSettings.PKCS11_SLOT, "1234567");
    entries.put(JndiSettings.PKCS11_PIN, PIN);
    return entries;
  }

  private static InvalidSettingException refused(Map<String, Object> entries, String entry) {
    InvalidSettingException e =
        assertThrows(InvalidSettingException.class, () -> JndiSettings.read(entries::get));
    assertTrue(e.getMessage().startsWith("java:comp/env/" + entry + " "), e.getMessage());
    assertFalse(e.getMessage().contains(PIN), e.getMessage());
    return e;
  }

  @Test
  void whenUnsetThenNewKeysAreMadeInTheDatabaseAndNoTokenIsOpened() {
    Settings settings = TestSettings.with(Map.of());

    assertEquals(Settings.KeyStore.DATABASE, settings.keys().store());
    assertEquals(Optional.empty(), settings.keys().pkcs11());
  }

  @Test
  void whenATokenIsNamedBySlotThenItsSettingsAreRead() throws IOException {
    Settings settings = JndiSettings.read(token()::get);

    assertEquals(Settings.KeyStore.PKCS11, settings.keys().store());
    Settings.Pkcs11 pkcs11 = settings.keys().pkcs11().orElseThrow();
    assertEquals(module(), pkcs11.library());
    assertEquals(OptionalLong.of(1234567), pkcs11.slot());
    assertEquals(PIN, pkcs11.pin());
    assertFalse(pkcs11.toString().contains(PIN), pkcs11.toString());
    assertFalse(settings.toString().contains(PIN));
  }

  @Test
  void whenTheKeyStoreIsDatabaseWithATokenThenTheTokenStaysOpenForItsKeys() throws IOException {
    Map<String, Object> entries = token();
    entries.put(JndiSettings.KEY_STORE, "Database");

    Settings settings = JndiSettings.read(entries::get);

    assertEquals(Settings.KeyStore.DATABASE, settings.keys().store());
    assertTrue(settings.keys().pkcs11().isPresent());
  }

  @Test
  void whenThePinIsAFileThenItsFirstLineIsThePin() throws IOException {
    Map<String, Object> entries = token();
    entries.remove(JndiSettings.PKCS11_PIN);
    Path file = Files.writeString(folder.resolve("pin"), PIN + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    entries.put(JndiSettings.PKCS11_PIN_FILE, file.toString());

    assertEquals(PIN, JndiSettings.read(entries::get).keys().pkcs11().orElseThrow().pin());
  }

  @ParameterizedTest
  @ValueSource(strings = {"rw-r--r--", "rw-rw----", "rw----r--"})
  void whenThePinFileIsReadableByOthersThenRefusedNamingItAndNeverShowingThePin(String mode)
      throws IOException {
    Map<String, Object> entries = token();
    entries.remove(JndiSettings.PKCS11_PIN);
    Path file = Files.writeString(folder.resolve("pin"), PIN + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    entries.put(JndiSettings.PKCS11_PIN_FILE, file.toString());

    refused(entries, JndiSettings.PKCS11_PIN_FILE);
  }

  @Test
  void whenPkcs11WithoutALibraryThenRefusedNamingTheLibrary() throws IOException {
    Map<String, Object> entries = token();
    entries.remove(JndiSettings.PKCS11_LIBRARY);

    refused(entries, JndiSettings.PKCS11_LIBRARY);
  }

  @Test
  void whenTheLibraryIsRelativeOrMissingThenRefusedNamingIt() throws IOException {
    Map<String, Object> entries = token();
    entries.put(JndiSettings.PKCS11_LIBRARY, "lib/softhsm/libsofthsm2.so");
    assertTrue(refused(entries, JndiSettings.PKCS11_LIBRARY).getMessage().contains("relative"));

    entries.put(JndiSettings.PKCS11_LIBRARY, folder.resolve("nothing.so").toString());
    assertTrue(refused(entries, JndiSettings.PKCS11_LIBRARY).getMessage().contains("not a file"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/usr/lib/a.so\"\nslot = 0\n",
        "/usr/lib/a.so\nlibrary = /tmp/evil.so",
        "/usr/lib/a\\\".so",
        "/usr/lib/a\u0000.so"
      })
  void whenTheLibraryCouldInjectProviderConfigurationThenRefused(String library)
      throws IOException {
    Map<String, Object> entries = token();
    entries.put(JndiSettings.PKCS11_LIBRARY, library);

    refused(entries, JndiSettings.PKCS11_LIBRARY);
  }

  @Test
  void whenBothOrNeitherOfSlotAndLabelThenRefusedNamingTheSlot() throws IOException {
    Map<String, Object> both = token();
    both.put(JndiSettings.PKCS11_TOKEN_LABEL, "identity");
    refused(both, JndiSettings.PKCS11_SLOT);

    Map<String, Object> neither = token();
    neither.remove(JndiSettings.PKCS11_SLOT);
    refused(neither, JndiSettings.PKCS11_SLOT);
  }

  @Test
  void whenATokenIsNamedByLabelThenTheLabelIsRead() throws IOException {
    Map<String, Object> entries = token();
    entries.remove(JndiSettings.PKCS11_SLOT);
    entries.put(JndiSettings.PKCS11_TOKEN_LABEL, "identity prod");

    Settings.Pkcs11 pkcs11 = JndiSettings.read(entries::get).keys().pkcs11().orElseThrow();

    assertEquals(Optional.of("identity prod"), pkcs11.tokenLabel());
    assertEquals(OptionalLong.empty(), pkcs11.slot());
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "1e3", "0x10", "slot 1", "99999999999999999999"})
  void whenTheSlotIsNotAWholeNumberThenRefusedNamingIt(String slot) throws IOException {
    Map<String, Object> entries = token();
    entries.put(JndiSettings.PKCS11_SLOT, slot);

    refused(entries, JndiSettings.PKCS11_SLOT);
  }

  @Test
  void whenTheLabelIsLongerThanAPkcs11LabelThenRefused() throws IOException {
    Map<String, Object> entries = token();
    entries.remove(JndiSettings.PKCS11_SLOT);
    entries.put(JndiSettings.PKCS11_TOKEN_LABEL, "x".repeat(33));

    refused(entries, JndiSettings.PKCS11_TOKEN_LABEL);
  }

  @Test
  void whenThePinIsMissingThenRefusedNamingIt() throws IOException {
    Map<String, Object> entries = token();
    entries.remove(JndiSettings.PKCS11_PIN);

    refused(entries, JndiSettings.PKCS11_PIN);
  }

  @Test
  void whenThePinIsBothValueAndFileThenRefused() throws IOException {
    Map<String, Object> entries = token();
    entries.put(JndiSettings.PKCS11_PIN_FILE, folder.resolve("pin").toString());

    refused(entries, JndiSettings.PKCS11_PIN);
  }

  @Test
  void whenASlotOrPinIsSetWithoutALibraryThenRefusedNamingIt() {
    Map<String, Object> entries = TestSettings.entries();
    entries.put(JndiSettings.PKCS11_PIN, PIN);
    refused(entries, JndiSettings.PKCS11_PIN);

    entries.put(JndiSettings.PKCS11_SLOT, "1");
    refused(entries, JndiSettings.PKCS11_SLOT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"hsm", "PKCS#11", "pkcs12", "file"})
  void whenTheKeyStoreIsUnknownThenRefused(String store) {
    Map<String, Object> entries = TestSettings.entries();
    entries.put(JndiSettings.KEY_STORE, store);

    refused(entries, JndiSettings.KEY_STORE);
  }

  @Test
  void whenThePinIsAnUnresolvedPlaceholderThenRefusedWithoutEchoingIt() throws IOException {
    Map<String, Object> entries = token();
    entries.put(JndiSettings.PKCS11_PIN, "${HSM_PIN}");

    InvalidSettingException e = refused(entries, JndiSettings.PKCS11_PIN);
    assertFalse(e.getMessage().contains("HSM_PIN"), e.getMessage());
  }
}
