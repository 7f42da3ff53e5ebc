package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.naming.CommunicationException;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JndiSettingsTest {
  static final String KEK = TestSettings.KEK;
  static final String PEPPER = TestSettings.PEPPER;

  /** The web.xml defaults plus the two secrets every deployment sets. */
  static Map<String, Object> valid() {
    return TestSettings.entries();
  }

  static Settings read(Map<String, Object> entries) {
    return JndiSettings.read(entries::get);
  }

  @Test
  void whenDefaultsThenEverySettingIsTyped() {
    Settings settings = read(valid());

    assertEquals("https://identity.example.com", settings.issuer().toString());
    assertEquals(Duration.ofDays(1), settings.tokenLifetime());
    assertEquals(32, settings.keyEncryptionKey().getEncoded().length);
    assertEquals("AES", settings.keyEncryptionKey().getAlgorithm());
    assertEquals("HmacSHA256", settings.secretPepper().getAlgorithm());
    assertTrue(settings.bootstrap().isEmpty());
    assertEquals("root", settings.bootstrapOrganization());
    assertEquals(2048, settings.signingKeySize());
    assertEquals(Duration.ofDays(90), settings.keySchedule().rotationInterval());
    assertEquals(Duration.ofHours(24), settings.keySchedule().prePublication());
    assertEquals(Duration.ofHours(25), settings.keySchedule().retention());
    assertEquals(Duration.ofSeconds(30), settings.keySchedule().refresh());
    assertEquals(Settings.RateLimitStore.MEMORY, settings.rateLimitStore());
    assertEquals(Duration.ofDays(1), settings.adminTokenLifetime(), "unset: the token lifetime");
    assertEquals(List.of(), settings.managerGrantableScopes());
  }

  @Test
  void whenAdministrationSettingsAreGivenThenTheyAreRead() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.ADMIN_TOKEN_LIFETIME, "PT1H");
    entries.put(JndiSettings.MANAGER_GRANTABLE_SCOPES, "kitchen:*, catalog:products.view");

    Settings settings = read(entries);

    assertEquals(Duration.ofHours(1), settings.adminTokenLifetime());
    assertEquals(List.of("kitchen:*", "catalog:products.view"), settings.managerGrantableScopes());
  }

  @Test
  void whenNumbersAndLoopbackHttpThenAccepted() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.ISSUER, "http://127.0.0.1:8080");
    entries.put(JndiSettings.TOKEN_LIFETIME, 3600);
    entries.put(JndiSettings.SIGNING_KEY_SIZE, 3072);
    entries.put(JndiSettings.RATE_LIMIT_STORE, "DATABASE");

    Settings settings = read(entries);

    assertEquals(Duration.ofHours(1), settings.tokenLifetime());
    assertEquals(3072, settings.signingKeySize());
    assertEquals(Settings.RateLimitStore.DATABASE, settings.rateLimitStore());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://localhost",
        "http://LocalHost:8080",
        "http://127.0.0.1:8080",
        "http://127.1.2.3",
        "http://127.255.255.255:80",
        "http://[::1]:8080",
        "http://[0:0:0:0:0:0:0:1]",
        "http://[0000::0001]/identity",
      })
  void whenHttpIssuerIsOnALoopbackLiteralThenAccepted(String issuer) {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.ISSUER, issuer);

    assertEquals(issuer, read(entries).issuer().toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.example.com",
        "http://127.0.0.1.nip.io",
        "http://127.0.0.1.:8080",
        "http://localhost.evil.com",
        "http://localhost.",
        "http://evil-localhost",
        "http://127.1",
        "http://127.0.0.256",
        "http://127.0.0.01",
        "http://128.0.0.1",
        "http://0x7f.0.0.1",
        "http://[::2]",
        "http://[::1:1]",
        "http://[1::1]",
        "http://[::ffff:127.0.0.1]",
        "http://[0:0:0:0:0:0:0:0:1]",
      })
  void whenHttpIssuerMerelyLooksLikeLoopbackThenRefused(String issuer) {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.ISSUER, issuer);

    InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> read(entries));

    assertTrue(e.getMessage().startsWith("java:comp/env/identity/issuer "), e.getMessage());
  }

  @Test
  void whenTrustedProxiesAreIpv6ThenInTheFormTheContainerGivesTheConnectionsAddress() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.TRUSTED_PROXIES, "127.0.0.1, ::1 ,2001:DB8::7");

    assertEquals(
        List.of("127.0.0.1", "0:0:0:0:0:0:0:1", "2001:db8:0:0:0:0:0:7"),
        read(entries).trustedProxies());
  }

  @Test
  void whenBootstrapConfiguredThenItIsReadAndItsSecretHidden() {
    UUID id = UUID.randomUUID();
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, id.toString());
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_SECRET, "a-long-enough-bootstrap-secret-0123456789");

    Settings settings = read(entries);

    assertEquals(id, settings.bootstrap().orElseThrow().clientId());
    assertFalse(settings.toString().contains("a-long-enough-bootstrap-secret"));
  }

  @Test
  void whenBootstrapEntriesAreEmptyThenNoneIsConfigured() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, "");
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_SECRET, " ");

    assertTrue(read(entries).bootstrap().isEmpty());
  }

  @ParameterizedTest(name = "{0} = ''{1}'' fails: {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "<unset>",
      value = {
        "identity/issuer | <unset> | is not set",
        "identity/issuer | not a url at all | is not a URL",
        "identity/issuer | /relative | must be an absolute URL",
        "identity/issuer | http://identity.example.com | must use https",
        "identity/issuer | https://identity.example.com/ | must not end with '/'",
        "identity/issuer | https://identity.example.com?x=1 | no query",
        "identity/issuer | https://user@identity.example.com | no query, fragment or user",
        "identity/tokenLifetime | 24h | is not an ISO-8601 duration",
        "identity/tokenLifetime | PT30S | must be at least",
        "identity/tokenLifetime | P2D | must be at most",
        "identity/keyEncryptionKey | <unset> | is not set",
        "identity/keyEncryptionKey | not*base64 | is not base64",
        "identity/keyEncryptionKey | AAECAwQFBgcICQoLDA0ODw== | must be 256 bits",
        "identity/secretPepper | <unset> | is not set",
        "identity/secretPepper | AAECAwQFBgcICQoLDA0ODw== | must be at least 256 bits",
        "identity/bootstrapOrganization | has space | must be 1 to 64 letters",
        "identity/signingKeySize | 1024 | from 2048 to 8192",
        "identity/signingKeySize | 2049 | multiple of 8",
        "identity/signingKeySize | big | is not a whole number",
        "identity/keyPrePublication | PT30M | must be at least",
        "identity/keyRetention | PT24H | must be at least the token lifetime plus 5 minutes",
        "identity/keyRotationInterval | PT24H | must be at least the pre-publication time",
        "identity/keyRingRefresh | PT0S | must be at least",
        "identity/rateLimitStore | redis | must be 'memory' or 'database'",
        "identity/rsaProvider | bouncycastle | must be 'accp' or 'jdk'",
        "identity/trustedProxies | proxy.example.com | must list IP addresses",
        "identity/trustedProxies | 1:::2 | must list IP addresses",
        "identity/tokenRateLimit | 0 | must be from 1 to 1000000",
        "identity/tokenRateLimit | lots | is not a whole number",
        "identity/maxPublishedKeys | 2 | must be from 3 to 100",
        "identity/maxPublishedKeys | many | is not a whole number",
        "identity/adminTokenLifetime | P2D | must be at most PT24H",
        "identity/adminTokenLifetime | PT10S | must be at least",
        "identity/managerGrantableScopes | identity:admin | must list scopes",
        "identity/managerGrantableScopes | kitchen:*, identity:* | must list scopes",
        "identity/managerGrantableScopes | kitchen | must list scopes",
      })
  void whenEntryIsInvalidThenTheErrorNamesItAndSaysWhy(String entry, String value, String why) {
    Map<String, Object> entries = valid();
    entries.put(entry, value);

    InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> read(entries));

    assertTrue(e.getMessage().startsWith("java:comp/env/" + entry + " "), e.getMessage());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({
    "identity/bootstrapClientId, not-a-uuid, identity/bootstrapClientSecret, a-long-enough-bootstrap-secret-0123456789, is not a UUID",
    "identity/bootstrapClientId, 00000000-0000-4000-8000-000000000001, identity/bootstrapClientSecret, short, at least 32 characters",
  })
  void whenBootstrapIsInvalidThenTheErrorNamesTheEntry(
      String idEntry, String id, String secretEntry, String secret, String why) {
    Map<String, Object> entries = valid();
    entries.put(idEntry, id);
    entries.put(secretEntry, secret);

    InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> read(entries));

    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void whenOnlyOneBootstrapEntryIsSetThenTheOtherIsNamed() {
    Map<String, Object> idOnly = valid();
    idOnly.put(JndiSettings.BOOTSTRAP_CLIENT_ID, UUID.randomUUID().toString());
    Map<String, Object> secretOnly = valid();
    secretOnly.put(
        JndiSettings.BOOTSTRAP_CLIENT_SECRET, "a-long-enough-bootstrap-secret-0123456789");

    assertTrue(
        assertThrows(InvalidSettingException.class, () -> read(idOnly))
            .getMessage()
            .startsWith("java:comp/env/identity/bootstrapClientSecret must be set"));
    assertTrue(
        assertThrows(InvalidSettingException.class, () -> read(secretOnly))
            .getMessage()
            .startsWith("java:comp/env/identity/bootstrapClientId must be set"));
  }

  @Test
  void whenTheLookupFailsThenTheEntryIsNamed() {
    InvalidSettingException e =
        assertThrows(
            InvalidSettingException.class,
            () ->
                JndiSettings.read(
                    name -> {
                      throw new IllegalStateException("naming is broken");
                    }));

    assertTrue(e.getMessage().contains("cannot be read: naming is broken"), e.getMessage());
  }

  @Test
  void whenTheNameIsNotFoundDirectlyOrWrappedAsPayaraDoesThenItIsNotBound() {
    NamingException payara = new NamingException("Lookup failed for 'java:comp/env/identity/x'");
    payara.setRootCause(new NameNotFoundException("No object bound to name java:comp/env/x"));

    assertTrue(JndiSettings.isNotBound(new NameNotFoundException("x")));
    assertTrue(JndiSettings.isNotBound(payara));
    assertFalse(JndiSettings.isNotBound(new CommunicationException("naming service down")));
  }
}
