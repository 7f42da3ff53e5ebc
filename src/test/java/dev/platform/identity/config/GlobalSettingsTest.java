package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 41: a setting given by the server's own tool under a global name (WildFly's {@code
 * java:global/identity/X}, Payara Server's {@code identity/X}) rather than in the WAR's {@code
 * java:comp/env}.
 */
class GlobalSettingsTest {
  static final String OTHER_KEK = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";

  @TempDir Path folder;

  /** The WAR's own web.xml: its defaults, and nothing else, as a server binds them. */
  static Map<String, Object> warDefaults() throws IOException {
    Map<String, Object> entries = new HashMap<>();
    Matcher entry =
        Pattern.compile(
                "<env-entry-name>(.*?)</env-entry-name>\\s*<env-entry-type>[^<]*</env-entry-type>"
                    + "\\s*<env-entry-value>(.*?)</env-entry-value>")
            .matcher(Files.readString(Path.of("src/main/webapp/WEB-INF/web.xml")));
    while (entry.find()) {
      entries.put(entry.group(1), entry.group(2));
    }
    return entries;
  }

  /** The production minimum, every one of it at a global name; the WAR's defaults in its own. */
  Map<String, Object> global(String prefix) throws IOException {
    Map<String, Object> global = new HashMap<>();
    global.put(prefix + JndiSettings.ISSUER, "https://identity.example.org");
    global.put(
        prefix + JndiSettings.KEY_ENCRYPTION_KEY_FILE, ownerOnly("kek", TestSettings.KEK + "\n"));
    global.put(
        prefix + JndiSettings.SECRET_PEPPER_FILE, ownerOnly("pepper", TestSettings.PEPPER + "\n"));
    global.put(prefix + JndiSettings.ADMIN_TOKEN_LIFETIME, "PT1H");
    return global;
  }

  String ownerOnly(String name, String content) throws IOException {
    Path file =
        Files.createFile(
            Files.createTempDirectory(folder, name).resolve(name),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, content);
    return file.toString();
  }

  static InvalidSettingException refused(Map<String, Object> own, Map<String, Object> global) {
    return assertThrows(
        InvalidSettingException.class, () -> JndiSettings.read(own::get, global::get));
  }

  @ParameterizedTest
  @ValueSource(strings = {"java:global/", ""})
  void whenSettingsAreGivenAtGlobalNamesThenTheyOverrideTheWarsDefaults(String prefix)
      throws IOException {
    Settings settings = JndiSettings.read(warDefaults()::get, global(prefix)::get);

    assertEquals("https://identity.example.org", settings.tokens().issuer().toString());
    assertEquals(Duration.ofHours(1), settings.tokens().adminLifetime());
    assertEquals(
        Duration.ofHours(24), settings.tokens().lifetime(), "the WAR's default where not given");
  }

  /** The WAR's defaults and only them: what tells an operator's value from the WAR's own. */
  @Test
  void whenTheWarsWebXmlGivesAValueThenItIsTheSettingsDeclaredDefault() throws IOException {
    Map<String, Object> defaults = warDefaults();
    assertTrue(defaults.size() > 30, defaults.toString());
    defaults.forEach(
        (entry, value) ->
            assertTrue(
                value.toString().isEmpty()
                    || value.equals(Setting.of(entry.toString()).byDefault()),
                entry + " is '" + value + "' in web.xml, not its declared default"));
  }

  @Test
  void whenTheWarsEnvironmentAndAGlobalNameGiveDifferentValuesThenRefusedNamingBoth()
      throws IOException {
    Map<String, Object> own = warDefaults();
    own.put(JndiSettings.ISSUER, "https://one.example.org");

    String message = refused(own, global("java:global/")).getMessage();

    assertEquals(
        "java:comp/env/identity/issuer and java:global/identity/issuer are both set, to different"
            + " values; give the setting at one of them",
        message);
  }

  @Test
  void whenASecretIsGivenAsAValueAndAsAFileAtDifferentPlacesThenBothAreNamed() throws IOException {
    Map<String, Object> own = warDefaults();
    own.put(JndiSettings.KEY_ENCRYPTION_KEY, OTHER_KEK);

    String message = refused(own, global("")).getMessage();

    assertEquals(
        "java:comp/env/identity/keyEncryptionKey and identity/keyEncryptionKeyFile are both set;"
            + " set only one (production: the file, and the other empty)",
        message);
    assertFalse(message.contains(OTHER_KEK), message);
  }

  @Test
  void whenTheSameValueIsGivenAtTwoPlacesThenItIsTaken() throws IOException {
    Map<String, Object> own = warDefaults();
    own.put(JndiSettings.ISSUER, "https://identity.example.org");
    Map<String, Object> global = global("");
    global.put("java:global/" + JndiSettings.ISSUER, " https://identity.example.org ");

    Settings settings = JndiSettings.read(own::get, global::get);

    assertEquals("https://identity.example.org", settings.tokens().issuer().toString());
  }

  @Test
  void whenTheTwoGlobalNamesGiveDifferentValuesThenRefusedNamingBoth() throws IOException {
    Map<String, Object> global = global("");
    global.put("java:global/" + JndiSettings.TOKEN_LIFETIME, "PT1H");
    global.put(JndiSettings.TOKEN_LIFETIME, "PT2H");

    assertEquals(
        "java:global/identity/tokenLifetime and identity/tokenLifetime are both set, to different"
            + " values; give the setting at one of them",
        refused(warDefaults(), global).getMessage());
  }

  @Test
  void whenAGloballyGivenValueIsInvalidThenTheErrorNamesTheGlobalName() throws IOException {
    Map<String, Object> global = global("java:global/");
    global.put("java:global/" + JndiSettings.TOKEN_LIFETIME, "PT0S");
    Map<String, Object> secret = global("");
    secret.put(JndiSettings.SECRET_PEPPER_FILE, "");
    secret.put(JndiSettings.SECRET_PEPPER, "${ENV=PEPPER}");

    String lifetime = refused(warDefaults(), global).getMessage();
    String pepper = refused(warDefaults(), secret).getMessage();

    assertTrue(lifetime.startsWith("java:global/identity/tokenLifetime must be"), lifetime);
    assertEquals(
        "identity/secretPepper looks like an unresolved ${...} placeholder; set the property it"
            + " names",
        pepper);
  }

  @Test
  void whenAGlobalLookupFailsThenTheStartStopsNamingTheName() throws IOException {
    Map<String, Object> global = global("");
    InvalidSettingException e =
        assertThrows(
            InvalidSettingException.class,
            () ->
                JndiSettings.read(
                    warDefaults()::get,
                    name -> {
                      if (name.equals("identity/issuer")) {
                        throw new IllegalStateException("naming is broken");
                      }
                      return global.get(name);
                    }));

    assertEquals("identity/issuer cannot be read: naming is broken", e.getMessage());
  }

  @Test
  void whenTheSettingsAreReadThenOnlyTheDeclaredEntriesGlobalNamesAreLookedUp() throws IOException {
    Set<String> lookedUp = new TreeSet<>();
    Map<String, Object> global = global("");

    JndiSettings.read(
        warDefaults()::get,
        name -> {
          lookedUp.add(name);
          return global.get(name);
        });

    assertEquals(
        Arrays.stream(Setting.values())
            .flatMap(setting -> JndiSettings.globalNames(setting.entry()).stream())
            .collect(Collectors.toCollection(TreeSet::new)),
        lookedUp);
  }
}
