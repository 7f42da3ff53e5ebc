package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.naming.CommunicationException;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
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

    assertEquals("https://identity.example.com", settings.tokens().issuer().toString());
    assertEquals(Duration.ofDays(1), settings.tokens().lifetime());
    assertEquals(32, settings.secrets().keyEncryptionKey().getEncoded().length);
    assertEquals("AES", settings.secrets().keyEncryptionKey().getAlgorithm());
    assertEquals("HmacSHA256", settings.secrets().pepper().getAlgorithm());
    assertTrue(settings.bootstrap().account().isEmpty());
    assertEquals("root", settings.bootstrap().organization());
    assertEquals(2048, settings.keys().size());
    assertEquals(Duration.ofDays(90), settings.keys().schedule().rotationInterval());
    assertEquals(Duration.ofHours(24), settings.keys().schedule().prePublication());
    assertEquals(Duration.ofHours(25), settings.keys().schedule().retention());
    assertEquals(Duration.ofSeconds(30), settings.keys().schedule().refresh());
    assertEquals(Settings.RateLimitStore.MEMORY, settings.limits().rateLimitStore());
    assertEquals(
        Duration.ofDays(1), settings.tokens().adminLifetime(), "unset: the token lifetime");
    assertEquals(List.of(), settings.accounts().managerGrantableScopes());
  }

  @Test
  void whenTheSettingsAreReadThenExactlyTheDeclaredEntriesAreLookedUp() {
    Map<String, Object> entries = valid();
    Set<String> lookedUp = new TreeSet<>();

    JndiSettings.read(
        name -> {
          lookedUp.add(name);
          return entries.get(name);
        });

    assertEquals(
        Arrays.stream(Setting.values())
            .map(Setting::entry)
            .collect(Collectors.toCollection(TreeSet::new)),
        lookedUp);
  }

  @Test
  void whenAnEntryIsUnsetThenItsDeclaredDefaultIsRead() {
    Map<String, Object> explicit = valid();
    for (Setting setting : Setting.values()) {
      if (!setting.inWebXml() && !setting.byDefault().isEmpty()) {
        assertEquals(null, explicit.put(setting.entry(), setting.byDefault()), setting.entry());
      }
    }
    assertTrue(explicit.size() > valid().size(), "some defaults are the reader's");

    assertEquals(read(explicit), read(valid()));
  }

  @Test
  void whenTheSettingsArePrintedThenNoSecretShows() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, UUID.randomUUID().toString());
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_SECRET, "a-long-enough-bootstrap-secret-0123456789");

    String printed = read(entries).toString();

    assertFalse(printed.contains("a-long-enough-bootstrap-secret"), printed);
    assertTrue(printed.contains("keyEncryptionKey=(hidden)"), printed);
    assertTrue(printed.contains("pepper=(hidden)"), printed);
  }

  @Test
  void whenAdministrationSettingsAreGivenThenTheyAreRead() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.ADMIN_TOKEN_LIFETIME, "PT1H");
    entries.put(JndiSettings.MANAGER_GRANTABLE_SCOPES, "kitchen:*, catalog:products.view");

    Settings settings = read(entries);

    assertEquals(Duration.ofHours(1), settings.tokens().adminLifetime());
    assertEquals(
        List.of("kitchen:*", "catalog:products.view"),
        settings.accounts().managerGrantableScopes());
  }

  @Test
  void whenSecretRotationSettingsAreUnsetOrGivenThenTheyAreRead() {
    assertEquals(
        new Settings.SecretRotation(Duration.ofDays(7), Optional.empty()),
        read(valid()).accounts().secretRotation(),
        "unset: an overlap of up to 7 days, no maximum age");
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.MAX_SECRET_OVERLAP, "PT0S");
    entries.put(JndiSettings.SECRET_MAX_AGE, "P90D");

    assertEquals(
        new Settings.SecretRotation(Duration.ZERO, Optional.of(Duration.ofDays(90))),
        read(entries).accounts().secretRotation());
  }

  @Test
  void whenAssertionAudienceIsUnsetOrGivenThenItIsReadAndCheckedNamingTheEntry() {
    assertEquals(
        Settings.AssertionAudience.ISSUER_OR_TOKEN_ENDPOINT,
        read(valid()).clientKeys().assertionAudience(),
        "unset: issuer-or-token-endpoint");
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.ASSERTION_AUDIENCE, "issuer");
    assertEquals(Settings.AssertionAudience.ISSUER, read(entries).clientKeys().assertionAudience());
    entries.put(JndiSettings.ASSERTION_AUDIENCE, "token-endpoint");
    InvalidSettingException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            InvalidSettingException.class, () -> read(entries));
    org.junit.jupiter.api.Assertions.assertTrue(
        e.getMessage().contains(JndiSettings.ASSERTION_AUDIENCE), e.getMessage());
  }

  @Test
  void whenAuditRetentionIsUnsetOrGivenThenItIsReadAndCheckedNamingTheEntry() {
    assertEquals(Duration.ofDays(400), read(valid()).operations().auditRetention(), "unset: P400D");
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.AUDIT_RETENTION, "P30D");
    assertEquals(Duration.ofDays(30), read(entries).operations().auditRetention());
    for (String bad : List.of("PT1H", "P3651D", "a year")) {
      entries.put(JndiSettings.AUDIT_RETENTION, bad);
      InvalidSettingException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              InvalidSettingException.class, () -> read(entries));
      org.junit.jupiter.api.Assertions.assertTrue(
          e.getMessage().contains(JndiSettings.AUDIT_RETENTION), e.getMessage());
    }
  }

  /** Issue 36 items 1 and 10. */
  @Test
  void whenTheClientCaFileIsUnsetOrGivenThenItsCertificatesAreReadAndAFaultNamesTheEntry(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path folder) throws Exception {
    assertTrue(read(valid()).clientKeys().tlsClientAuthorities().isEmpty(), "unset: none");
    dev.platform.identity.tls.TestPki one = dev.platform.identity.tls.TestPki.authority("One");
    dev.platform.identity.tls.TestPki two = dev.platform.identity.tls.TestPki.authority("Two");
    java.nio.file.Path file = folder.resolve("cas.pem");
    java.nio.file.Files.writeString(file, pem(one.certificate()) + pem(two.certificate()));
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.TLS_CLIENT_CA_FILE, file.toString());
    assertEquals(
        List.of(one.certificate(), two.certificate()),
        read(entries).clientKeys().tlsClientAuthorities());

    java.nio.file.Path empty = folder.resolve("empty.pem");
    java.nio.file.Files.writeString(empty, "");
    java.nio.file.Path garbage = folder.resolve("garbage.pem");
    java.nio.file.Files.writeString(
        garbage, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    java.time.Instant now = java.time.Instant.now();
    java.nio.file.Path expired = folder.resolve("expired.pem");
    java.nio.file.Files.writeString(
        expired,
        pem(
            one.client("CN=old", now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1)))
                .certificate()));
    Map<String, String> faults =
        Map.of(
            "relative.pem",
            "relative path",
            folder.resolve("missing.pem").toString(),
            "cannot be read",
            empty.toString(),
            "holds no certificate",
            garbage.toString(),
            "not PEM certificates",
            expired.toString(),
            "is not valid now");
    faults.forEach(
        (path, says) -> {
          Map<String, Object> bad = valid();
          bad.put(JndiSettings.TLS_CLIENT_CA_FILE, path);
          InvalidSettingException e =
              org.junit.jupiter.api.Assertions.assertThrows(
                  InvalidSettingException.class, () -> read(bad));
          assertTrue(e.getMessage().contains(JndiSettings.TLS_CLIENT_CA_FILE), e.getMessage());
          assertTrue(e.getMessage().contains(says), path + ": " + e.getMessage());
        });
  }

  @Test
  void whenJwksUriSettingsAreUnsetOrGivenThenTheyAreReadAndCheckedNamingTheEntry() {
    assertEquals(
        new Settings.JwksUris(java.util.Set.of(), Duration.ofHours(1)),
        read(valid()).clientKeys().jwksUris(),
        "unset: 443 only, PT1H");
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.JWKS_URI_PORTS, "8443, 9443,8443");
    entries.put(JndiSettings.CLIENT_KEY_SET_MAX_AGE, "PT15M");
    assertEquals(
        new Settings.JwksUris(java.util.Set.of(8443, 9443), Duration.ofMinutes(15)),
        read(entries).clientKeys().jwksUris());
    for (String bad : List.of("0", "65536", "-1", "22a", "443;22", "99999999999")) {
      Map<String, Object> ports = valid();
      ports.put(JndiSettings.JWKS_URI_PORTS, bad);
      InvalidSettingException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              InvalidSettingException.class, () -> read(ports));
      assertTrue(e.getMessage().contains(JndiSettings.JWKS_URI_PORTS), e.getMessage());
    }
    for (String bad : List.of("PT9M", "P2D", "an hour")) {
      Map<String, Object> age = valid();
      age.put(JndiSettings.CLIENT_KEY_SET_MAX_AGE, bad);
      InvalidSettingException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              InvalidSettingException.class, () -> read(age));
      assertTrue(e.getMessage().contains(JndiSettings.CLIENT_KEY_SET_MAX_AGE), e.getMessage());
    }
  }

  @Test
  void whenNumbersAndLoopbackHttpThenAccepted() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.ISSUER, "http://127.0.0.1:8080");
    entries.put(JndiSettings.TOKEN_LIFETIME, 3600);
    entries.put(JndiSettings.SIGNING_KEY_SIZE, 3072);
    entries.put(JndiSettings.RATE_LIMIT_STORE, "DATABASE");

    Settings settings = read(entries);

    assertEquals(Duration.ofHours(1), settings.tokens().lifetime());
    assertEquals(3072, settings.keys().size());
    assertEquals(Settings.RateLimitStore.DATABASE, settings.limits().rateLimitStore());
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

    assertEquals(issuer, read(entries).tokens().issuer().toString());
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
        read(entries).limits().trustedProxies());
  }

  @Test
  void whenBootstrapConfiguredThenItIsReadAndItsSecretHidden() {
    UUID id = UUID.randomUUID();
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, id.toString());
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_SECRET, "a-long-enough-bootstrap-secret-0123456789");

    Settings settings = read(entries);

    assertEquals(id, settings.bootstrap().account().orElseThrow().clientId());
    assertFalse(settings.toString().contains("a-long-enough-bootstrap-secret"));
  }

  @Test
  void whenBootstrapEntriesAreEmptyThenNoneIsConfigured() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, "");
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_SECRET, " ");

    assertTrue(read(entries).bootstrap().account().isEmpty());
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
        "identity/tokenLifetime | PT30S | must be at least 1 minute (PT1M)",
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
        "identity/keyPrePublication | PT30M | must be at least 1 hour (PT1H)",
        "identity/keyRetention | PT24H | must be at least the token lifetime plus 5 minutes",
        "identity/keyRotationInterval | PT24H | must be at least the pre-publication time",
        "identity/keyRingRefresh | PT0S | must be at least",
        "identity/rateLimitStore | redis | must be 'memory' or 'database'",
        "identity/rsaProvider | bouncycastle | must be 'accp' or 'jdk'",
        "identity/metricsAccess | public | must be 'token', 'open' or 'off'",
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
        "identity/maxSecretOverlap | -PT1H | must be at least",
        "identity/maxSecretOverlap | P91D | must be at most",
        "identity/maxSecretOverlap | a week | is not an ISO-8601 duration",
        "identity/secretMaxAge | PT1H | must be at least",
        "identity/secretMaxAge | P3651D | must be at most",
        "identity/secretMaxAge | 90 days | is not an ISO-8601 duration",
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

  /**
   * Review 39: each certificate of identity/tlsClientCaFile is a trust anchor, and the JDK checks
   * no anchor's extensions: a client's own certificate put there by mistake (a self-signed one,
   * say, mistaken for a self_signed_tls_client_auth registration) let its holder sign certificates
   * for any account's subject. Only a CA's certificate is taken.
   */
  @Test
  void whenTheTlsClientCaFileHoldsACertificateThatIsNoCaThenTheStartStopsNamingIt()
      throws IOException {
    dev.platform.identity.tls.TestPki ca = dev.platform.identity.tls.TestPki.authority("File CA");
    Path good = folder.resolve("cas.pem");
    Files.writeString(good, pem(ca.certificate()));
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.TLS_CLIENT_CA_FILE, good.toString());
    assertEquals(List.of(ca.certificate()), read(entries).clientKeys().tlsClientAuthorities());
    for (java.security.cert.X509Certificate notCa :
        List.of(
            dev.platform.identity.tls.TestPki.selfSigned("CN=orders").certificate(),
            ca.client("CN=orders").certificate())) {
      Path file = folder.resolve("not-ca.pem");
      Files.writeString(file, pem(ca.certificate()) + pem(notCa));
      entries.put(JndiSettings.TLS_CLIENT_CA_FILE, file.toString());
      InvalidSettingException e = refused(entries);
      assertTrue(e.getMessage().contains("CN=orders"), e.getMessage());
      assertTrue(e.getMessage().contains("not a CA"), e.getMessage());
    }
  }

  static String pem(java.security.cert.X509Certificate certificate) {
    try {
      return "-----BEGIN CERTIFICATE-----\n"
          + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'})
              .encodeToString(certificate.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  // Secrets as files (issue 18).

  @TempDir Path folder;

  Path ownerOnly(String name, String content) throws IOException {
    Path file = folder.resolve(name);
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  Map<String, Object> withFile(String fileEntry, Path file) {
    Map<String, Object> entries = valid();
    entries.remove(fileEntry.replaceFirst("File$", ""));
    entries.put(fileEntry, file.toString());
    return entries;
  }

  InvalidSettingException refused(Map<String, Object> entries) {
    InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> read(entries));
    assertFalse(e.getMessage().contains(KEK), e.getMessage());
    assertFalse(e.getMessage().contains(PEPPER), e.getMessage());
    return e;
  }

  @Test
  void whenSecretsAreOwnerOnlyFilesThenTheirContentWithoutTheTrailingNewlineIsTheValue()
      throws IOException {
    UUID id = UUID.randomUUID();
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.KEY_ENCRYPTION_KEY, "");
    entries.remove(JndiSettings.SECRET_PEPPER);
    entries.put(JndiSettings.KEY_ENCRYPTION_KEY_FILE, ownerOnly("kek", KEK + "\n").toString());
    entries.put(JndiSettings.SECRET_PEPPER_FILE, ownerOnly("pepper", PEPPER + " \r\n").toString());
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, id.toString());
    entries.put(
        JndiSettings.BOOTSTRAP_CLIENT_SECRET_FILE,
        ownerOnly("admin", "a-long-enough-bootstrap-secret-0123456789\n").toString());

    Settings settings = read(entries);
    Settings plain = read(valid());

    assertEquals(plain.secrets().keyEncryptionKey(), settings.secrets().keyEncryptionKey());
    assertEquals(plain.secrets().pepper(), settings.secrets().pepper());
    assertEquals(
        new Settings.BootstrapAccount(id, "a-long-enough-bootstrap-secret-0123456789"),
        settings.bootstrap().account().orElseThrow());
  }

  @ParameterizedTest
  @CsvSource({
    "identity/keyEncryptionKey, identity/keyEncryptionKeyFile",
    "identity/secretPepper, identity/secretPepperFile",
    "identity/bootstrapClientSecret, identity/bootstrapClientSecretFile",
  })
  void whenBothFormsAreSetThenTheErrorNamesBoth(String entry, String fileEntry) throws IOException {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, UUID.randomUUID().toString());
    entries.put(JndiSettings.BOOTSTRAP_CLIENT_SECRET, "a-long-enough-bootstrap-secret-0123456789");
    entries.put(fileEntry, ownerOnly("secret", KEK).toString());

    String message = refused(entries).getMessage();

    assertTrue(
        message.startsWith("java:comp/env/" + entry + " and java:comp/env/" + fileEntry), message);
    assertTrue(message.contains("set only one"), message);
  }

  @Test
  void whenNeitherFormIsSetThenBothAreNamed() {
    Map<String, Object> entries = valid();
    entries.remove(JndiSettings.SECRET_PEPPER);

    assertEquals(
        "java:comp/env/identity/secretPepper is not set, nor is its file form"
            + " java:comp/env/identity/secretPepperFile",
        refused(entries).getMessage());
  }

  @Test
  void whenTheFileIsMissingThenTheSettingAndTheFileAreNamed() {
    Path missing = folder.resolve("no-such-kek");

    String message = refused(withFile(JndiSettings.KEY_ENCRYPTION_KEY_FILE, missing)).getMessage();

    assertEquals(
        "java:comp/env/identity/keyEncryptionKeyFile names "
            + missing
            + ", which does not exist; create it or correct the path",
        message);
  }

  @Test
  void whenTheFileIsADirectoryThenRefused() {
    String message = refused(withFile(JndiSettings.SECRET_PEPPER_FILE, folder)).getMessage();

    assertTrue(
        message.startsWith("java:comp/env/identity/secretPepperFile names " + folder + ", "),
        message);
    assertTrue(message.contains("not a regular file"), message);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\n", "  \n\n"})
  void whenTheFileIsEmptyThenRefused(String content) throws IOException {
    Path empty = ownerOnly("empty", content);

    String message = refused(withFile(JndiSettings.KEY_ENCRYPTION_KEY_FILE, empty)).getMessage();

    assertTrue(
        message.endsWith(empty + ", which is empty; put the value in it (one line)"), message);
  }

  @ParameterizedTest
  @CsvSource({"rw-r--r--, read", "rw-r-----, read", "rw----r--, read", "rw--w----, write or run"})
  void whenGroupOrOthersMayUseTheFileThenRefusedWithTheModeAndTheFix(String mode, String may)
      throws IOException {
    Path kek = ownerOnly("kek", KEK);
    Files.setPosixFilePermissions(kek, PosixFilePermissions.fromString(mode));

    String message = refused(withFile(JndiSettings.KEY_ENCRYPTION_KEY_FILE, kek)).getMessage();

    assertEquals(
        "java:comp/env/identity/keyEncryptionKeyFile names "
            + kek
            + ", which group or others may "
            + may
            + " ("
            + mode
            + "); make it owner-only: chmod 600 "
            + kek,
        message);
  }

  @Test
  void whenTheFileIsALinkThenItsTargetIsJudged() throws IOException {
    Path target = ownerOnly("pepper", PEPPER);
    Path link = Files.createSymbolicLink(folder.resolve("link"), target);
    Path dangling = Files.createSymbolicLink(folder.resolve("dangling"), folder.resolve("gone"));

    assertEquals(
        read(valid()).secrets().pepper(),
        read(withFile(JndiSettings.SECRET_PEPPER_FILE, link)).secrets().pepper());
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-rw-"));
    String worldReadable = refused(withFile(JndiSettings.SECRET_PEPPER_FILE, link)).getMessage();
    assertTrue(worldReadable.contains("(rw-rw-rw-); make it owner-only"), worldReadable);
    assertTrue(
        refused(withFile(JndiSettings.SECRET_PEPPER_FILE, dangling))
            .getMessage()
            .contains("which does not exist"));
  }

  @Test
  void whenTheFileCannotBeReadThenRefused() throws IOException {
    assumeFalse("root".equals(System.getProperty("user.name")), "root reads any file");
    Path kek = ownerOnly("kek", KEK);
    Files.setPosixFilePermissions(kek, PosixFilePermissions.fromString("-w-------"));

    String message = refused(withFile(JndiSettings.KEY_ENCRYPTION_KEY_FILE, kek)).getMessage();

    assertTrue(message.contains(kek + ", which this server's user"), message);
  }

  @Test
  void whenTheFilesContentIsInvalidThenTheFileIsNamedAndTheContentNot() throws IOException {
    Path short_ = ownerOnly("short", "AAECAwQFBgcICQoLDA0ODw==\n");
    Path notBase64 = ownerOnly("text", "not*base64-secret-text\n");

    String tooShort = refused(withFile(JndiSettings.KEY_ENCRYPTION_KEY_FILE, short_)).getMessage();
    String garbage = refused(withFile(JndiSettings.SECRET_PEPPER_FILE, notBase64)).getMessage();

    assertEquals(
        "java:comp/env/identity/keyEncryptionKeyFile names "
            + short_
            + ", whose content must be 256 bits (32 bytes, base64), not 128 bits",
        tooShort);
    assertEquals(
        "java:comp/env/identity/secretPepperFile names "
            + notBase64
            + ", whose content is not base64",
        garbage);
  }

  // Unresolved placeholders (issue 18).

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "identity/keyEncryptionKey | ${identity.kek} | looks like an unresolved ${...}"
            + " placeholder; set the property it names",
        "identity/secretPepper | ${ENV=IDENTITY_PEPPER} | looks like an unresolved ${...}"
            + " placeholder; set the property it names",
        "identity/bootstrapClientSecret | ${PlaceholderLooking-Secret-4711} | looks like an"
            + " unresolved ${...} placeholder; set the property it names",
        "identity/issuer | ${a\\nSEVERE forged line} | looks like an unresolved ${...}"
            + " placeholder",
        "identity/keyEncryptionKeyFile | ${catalina.base}/conf/identity/kek | starts with"
            + " '${catalina.base}', an unresolved placeholder: no system property catalina.base"
            + " is set",
        "identity/issuer | ${identity.issuer} | is '${identity.issuer}', an unresolved"
            + " placeholder: no system property identity.issuer is set",
        "identity/tokenLifetime | ${ttl} | is '${ttl}', an unresolved placeholder: no system"
            + " property ttl is set",
      })
  void whenAValueIsAnUnresolvedPlaceholderThenTheErrorSaysSo(
      String entry, String value, String problem) {
    Map<String, Object> entries = valid();
    if (entry.equals(JndiSettings.BOOTSTRAP_CLIENT_SECRET)) {
      entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, UUID.randomUUID().toString());
    }
    entries.put(entry, value.replace("\\n", "\n"));

    assertEquals("java:comp/env/" + entry + " " + problem, refused(entries).getMessage());
  }

  // Where a generated administrator's secret goes (issue 18).

  @Test
  void whenBootstrapSecretOutputIsFileThenTheFileIsRead() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_SECRET_OUTPUT, "file");
    entries.put(JndiSettings.BOOTSTRAP_SECRET_FILE, folder.resolve("admin.txt").toString());

    assertEquals(Optional.of(folder.resolve("admin.txt")), read(entries).bootstrap().secretFile());
    assertEquals(Optional.empty(), read(valid()).bootstrap().secretFile(), "log");
  }

  @ParameterizedTest(name = "{0}, {1}: {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "<unset>",
      value = {
        "file | <unset> | identity/bootstrapSecretFile must be set when"
            + " java:comp/env/identity/bootstrapSecretOutput is 'file'",
        "file | /no/such/folder/admin.txt | identity/bootstrapSecretFile names"
            + " /no/such/folder/admin.txt, whose folder does not exist",
        "log | /tmp/admin.txt | identity/bootstrapSecretFile is set, but"
            + " java:comp/env/identity/bootstrapSecretOutput is 'log'",
        "syslog | <unset> | identity/bootstrapSecretOutput must be 'log' or 'file', not 'syslog'",
        "<unset> | <unset> | identity/bootstrapSecretOutput is not set",
      })
  void whenBootstrapSecretOutputIsInconsistentThenTheEntryIsNamed(
      String output, String file, String problem) {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_SECRET_OUTPUT, output);
    entries.put(JndiSettings.BOOTSTRAP_SECRET_FILE, file);

    String message = refused(entries).getMessage();

    assertTrue(message.startsWith("java:comp/env/" + problem), message);
  }

  @Test
  void whenBootstrapSecretFileIsAFolderThenRefused() {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_SECRET_OUTPUT, "file");
    entries.put(JndiSettings.BOOTSTRAP_SECRET_FILE, folder.toString());

    assertTrue(refused(entries).getMessage().contains("which is a folder"));
  }

  // Files and folders as an attacker on the same host sees them (security review F1, F4, F7).

  static void chmod(Path path, String mode) throws IOException {
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
  }

  Map<String, Object> withOutputFile(Path file) {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.BOOTSTRAP_SECRET_OUTPUT, "file");
    entries.put(JndiSettings.BOOTSTRAP_SECRET_FILE, file.toString());
    return entries;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"rwxrwx---", "rwx-wx-wx", "rwxrwxrwx"})
  void whenTheBootstrapSecretFilesFolderIsWritableByOthersThenRefusedNamingItAndTheFix(String mode)
      throws IOException {
    Path shared = Files.createDirectory(folder.resolve("shared"));
    chmod(shared, mode);

    String message = refused(withOutputFile(shared.resolve("admin.txt"))).getMessage();

    assertTrue(message.startsWith("java:comp/env/identity/bootstrapSecretFile names "), message);
    assertTrue(message.contains("whose folder " + shared + " group or others may write"), message);
    assertTrue(message.contains("chmod 700 " + shared), message);
  }

  @Test
  void whenTheBootstrapSecretFilesFolderIsAnotherUsersThenRefused() throws IOException {
    Path theirs = Files.createDirectory(folder.resolve("theirs"));
    assumeTrue(chownToNobody(theirs), "only root can give a folder away");

    String message = refused(withOutputFile(theirs.resolve("admin.txt"))).getMessage();

    assertTrue(message.contains("whose folder " + theirs + " is owned by nobody"), message);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"rwxrwx---", "rwx----w-", "rwxrwxrwx"})
  void whenASecretFilesFolderIsWritableByOthersThenRefused(String mode) throws IOException {
    Path shared = Files.createDirectory(folder.resolve("shared"));
    Path kek = Files.writeString(shared.resolve("kek"), KEK);
    chmod(kek, "rw-------");
    chmod(shared, mode);

    String message = refused(withFile(JndiSettings.KEY_ENCRYPTION_KEY_FILE, kek)).getMessage();

    assertTrue(message.contains("whose folder " + shared + " group or others may write"), message);
  }

  @Test
  void whenASecretFileIsAnotherUsersThenRefused() throws IOException {
    Path kek = ownerOnly("kek", KEK);
    assumeTrue(chownToNobody(kek), "only root can give a file away");

    String message = refused(withFile(JndiSettings.KEY_ENCRYPTION_KEY_FILE, kek)).getMessage();

    assertTrue(message.contains(kek + ", which is owned by nobody"), message);
  }

  @Test
  void whenALinkLeadsIntoAFolderOthersMayWriteThenTheRealFolderIsJudged() throws IOException {
    Path shared = Files.createDirectory(folder.resolve("shared"));
    Path pepper = Files.writeString(shared.resolve("pepper"), PEPPER);
    chmod(pepper, "rw-------");
    chmod(shared, "rwxrwxrwx");
    Path link = Files.createSymbolicLink(folder.resolve("link"), pepper);

    String message = refused(withFile(JndiSettings.SECRET_PEPPER_FILE, link)).getMessage();

    assertTrue(message.contains("whose folder " + shared + " group or others may write"), message);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Setting.class,
      names = {
        "KEY_ENCRYPTION_KEY_FILE",
        "SECRET_PEPPER_FILE",
        "BOOTSTRAP_CLIENT_SECRET_FILE",
        "BOOTSTRAP_SECRET_FILE"
      })
  void whenAFileSettingIsARelativePathThenRefusedNamingTheSetting(Setting setting) {
    String entry = setting.entry();
    Map<String, Object> entries =
        entry.equals(JndiSettings.BOOTSTRAP_SECRET_FILE)
            ? withOutputFile(Path.of("admin.txt"))
            : withFile(entry, Path.of("conf", "secret"));
    if (entry.equals(JndiSettings.BOOTSTRAP_CLIENT_SECRET_FILE)) {
      entries.put(JndiSettings.BOOTSTRAP_CLIENT_ID, UUID.randomUUID().toString());
    }

    String message = refused(entries).getMessage();

    assertTrue(message.startsWith("java:comp/env/" + entry + " is "), message);
    assertTrue(message.contains("a relative path"), message);
  }

  // Previous key-encryption keys and peppers (issue 19).

  static final String OTHER_KEK = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";
  static final String THIRD_KEK = "QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8=";
  static final String OTHER_PEPPER = "b3RoZXItcGVwcGVyLWZvci10ZXN0cy1vbmx5LTMyYnl0ZXM=";

  @Test
  void whenPreviousKeysAreUnsetThenThereAreNone() {
    Settings settings = read(valid());

    assertEquals(List.of(), settings.secrets().previousKeyEncryptionKeys());
    assertEquals(List.of(), settings.secrets().previousPeppers());
  }

  @Test
  void whenPreviousKeysAreListedThenEachIsReadInOrder() throws IOException {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS, OTHER_KEK + " , " + THIRD_KEK);
    entries.put(
        JndiSettings.PREVIOUS_SECRET_PEPPERS_FILE,
        ownerOnly(
                "peppers",
                OTHER_PEPPER + "\n" + "c2Vjb25kLXByZXZpb3VzLXBlcHBlci1mb3ItdGVzdHMtb25seQ==" + "\n")
            .toString());

    Settings settings = read(entries);

    assertEquals(2, settings.secrets().previousKeyEncryptionKeys().size());
    assertEquals("AES", settings.secrets().previousKeyEncryptionKeys().get(0).getAlgorithm());
    assertEquals(
        OTHER_KEK,
        java.util.Base64.getEncoder()
            .encodeToString(settings.secrets().previousKeyEncryptionKeys().get(0).getEncoded()));
    assertEquals(2, settings.secrets().previousPeppers().size());
    assertEquals("HmacSHA256", settings.secrets().previousPeppers().get(1).getAlgorithm());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "identity/previousKeyEncryptionKeys|AAECAwQFBgcICQoLDA0ODw==|(key 1 of 1) must be 256 bits",
        "identity/previousKeyEncryptionKeys|KEK|(key 1 of 1) is the same key as java:comp/env/"
            + "identity/keyEncryptionKey; a previous key must differ from the current one",
        "identity/previousKeyEncryptionKeys|OTHER,KEK|(key 2 of 2) is the same key as",
        "identity/previousKeyEncryptionKeys|,OTHER|has an empty key 1 of 2",
        "identity/previousKeyEncryptionKeys|OTHER OTHER|lists the same key twice (keys 1 and 2)",
        "identity/previousKeyEncryptionKeys|OTHER,not*base64|(key 2 of 2) is not base64",
        "identity/previousSecretPeppers|PEPPER|(key 1 of 1) is the same key as java:comp/env/"
            + "identity/secretPepper",
        "identity/previousSecretPeppers|AAECAwQFBgcICQoLDA0ODw==|(key 1 of 1) must be at least 256",
      })
  void whenAPreviousKeyIsInvalidThenTheEntryAndThePositionAreNamedAndNoKey(
      String entry, String value, String why) {
    Map<String, Object> entries = valid();
    entries.put(
        entry,
        value
            .replace("OTHER", entry.contains("Pepper") ? OTHER_PEPPER : OTHER_KEK)
            .replace("KEK", KEK)
            .replace("PEPPER", PEPPER));

    String message = refused(entries).getMessage();

    assertTrue(message.startsWith("java:comp/env/" + entry + " "), message);
    assertTrue(message.contains(why), message);
    assertFalse(message.contains(OTHER_KEK) || message.contains(OTHER_PEPPER), message);
  }

  @Test
  void whenAPepperIsAlsoAKeyEncryptionKeyThenRefusedNamingBoth() {
    Map<String, Object> same = valid();
    same.put(JndiSettings.SECRET_PEPPER, KEK);
    Map<String, Object> previous = valid();
    previous.put(JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS, OTHER_KEK);
    previous.put(JndiSettings.PREVIOUS_SECRET_PEPPERS, OTHER_KEK);

    assertEquals(
        "java:comp/env/identity/secretPepper is the same key as"
            + " java:comp/env/identity/keyEncryptionKey; the pepper and the key-encryption key must"
            + " be separate random keys",
        refused(same).getMessage());
    assertEquals(
        "java:comp/env/identity/previousSecretPeppers (key 1) is the same key as"
            + " java:comp/env/identity/previousKeyEncryptionKeys (key 1); the pepper and the"
            + " key-encryption key must be separate random keys",
        refused(previous).getMessage());
  }

  @Test
  void whenMoreThanFivePreviousKeysAreListedThenRefused() {
    Map<String, Object> entries = valid();
    entries.put(
        JndiSettings.PREVIOUS_SECRET_PEPPERS,
        String.join(",", java.util.Collections.nCopies(6, OTHER_PEPPER)));

    assertTrue(refused(entries).getMessage().contains("lists 6 keys; keep at most 5"));
  }

  @Test
  void whenAPreviousKeyIsGivenInBothFormsThenBothAreNamed() throws IOException {
    Map<String, Object> entries = valid();
    entries.put(JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS, OTHER_KEK);
    entries.put(
        JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS_FILE, ownerOnly("keks", OTHER_KEK).toString());

    String message = refused(entries).getMessage();

    assertTrue(message.contains(JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS_FILE), message);
    assertTrue(message.contains("are both set"), message);
  }

  /** Gives {@code path} to the user nobody, as only root may; false when not root. */
  static boolean chownToNobody(Path path) throws IOException {
    if (!"root".equals(System.getProperty("user.name"))) {
      return false;
    }
    Files.setOwner(
        path, path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
    return true;
  }
}
