package dev.platform.identity;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * STYLE "package-private by default": a public top-level type of the service (every package but the
 * libraries' {@code verify}, {@code client} and {@code jose}, and the test kit's {@code testkit},
 * whose API is published) is public because another package names it or a framework needs it, and
 * says which here; a new one fails this test until it is either made package-private or given its
 * reason.
 */
class PublicSurfaceTest {
  private static final Path ROOT = Path.of("src/main/java/dev/platform/identity");

  /** google-java-format puts a top-level declaration at column 0 and its annotations above it. */
  private static final Pattern PUBLIC_TYPE =
      Pattern.compile(
          "^public (?:(?:final|abstract|sealed|non-sealed|strictfp) )*"
              + "(?:class|interface|enum|record|@interface) (\\w+)",
          Pattern.MULTILINE);

  private static final Pattern LIBRARIES = Pattern.compile("^(verify|client|jose|testkit)(/.*)?$");

  private static final String JERSEY = "Jersey resource: JAX-RS calls its methods reflectively";
  private static final String ENTITY = "EclipseLink entity, listed in persistence.xml";

  /** Type (package.Name) and why it is public. */
  static final Map<String, String> ALLOWED =
      Map.ofEntries(
          entry("account.AccountProfile", "admin and token read it"),
          entry("account.AccountStatus", "metrics counts accounts by it"),
          entry("account.Bootstrap", "web runs it at start-up; admin uses its scope names"),
          entry("account.ClientJwks", "admin stores and token reads clients' keys"),
          entry("account.ClientSecret", "admin makes new secrets"),
          entry("account.PepperCheck", "web runs it at start-up"),
          entry("account.SecretDigest", "admin, token and web digest secrets"),
          entry("account.SecretPepperIdMigration", "web lists it among Flyway's Java migrations"),
          entry("account.SecretPeppers", "admin and web use it"),
          entry("account.ServiceAccount", ENTITY + "; admin and token use it"),
          entry("account.ServiceAccounts", "admin, metrics, token and web use the store"),
          entry("admin.AccountJson", "console and its jte templates show it"),
          entry("admin.AdminAuth", "Jersey filter built by web; console uses it"),
          entry("admin.AnyScopeOf", "console checks with it"),
          entry("admin.ApiError", "console and web throw and map it"),
          entry("admin.ApiErrorMapper", "Jersey provider built by web"),
          entry("admin.AuditEventJson", "console and its jte templates show it"),
          entry("admin.AuditEventsResource", JERSEY + "; built by web, used by console"),
          entry("admin.InvalidJsonMapper", "Jersey provider built by web"),
          entry("admin.Items", "console reads the lists it wraps"),
          entry("admin.NewAccount", "console creates accounts with it"),
          entry("admin.ScopesResource", JERSEY + "; built by web, used by console and jte"),
          entry("admin.SecretPeppersResource", JERSEY + "; built by web"),
          entry("admin.ServiceAccountsResource", JERSEY + "; built by web, used by console"),
          entry("admin.SigningKeyList", "console shows it"),
          entry("admin.SigningKeysResource", JERSEY + "; built by web, used by console"),
          entry("audit.AuditCursor", "admin pages the audit log with it"),
          entry("audit.AuditEvent", ENTITY + "; other features record events"),
          entry("audit.AuditEvents", "admin, ratelimit and web use the store"),
          entry("audit.AuditLog", "every feature that audits uses it"),
          entry("audit.AuditQuery", "admin queries the audit log with it"),
          entry("audit.AuditRetention", "web schedules it"),
          entry("audit.CallerText", "admin and scope bound what they audit with it"),
          entry("config.DataSourcePlaceholders", "db uses it"),
          entry("config.InvalidSettingException", "account, key and web throw it"),
          entry("config.JndiSettings", "web reads the settings through it"),
          entry("config.KeyId", "account, key and web use it"),
          entry(
              "config.Setting",
              "docs.ConfigurationDocTest checks docs/configuration.md against it"),
          entry("config.Settings", "every feature is configured by it"),
          entry("console.Console", "web builds it"),
          entry("console.ConsoleAccountsResource", JERSEY),
          entry("console.ConsoleAuditResource", JERSEY),
          entry("console.ConsoleHeaders", "web adds the servlet filter"),
          entry("console.ConsoleKeysResource", JERSEY),
          entry("console.ConsoleResource", JERSEY),
          entry("console.ConsoleScopesResource", JERSEY),
          entry("console.Frame", "the jte templates (console.templates) take it"),
          entry("console.KeyTimeline", "the jte templates (console.templates) take it"),
          entry("db.Database", "every store uses it"),
          entry("db.DatabaseGuard", "web builds it"),
          entry("db.DatabaseHealth", "web builds it"),
          entry("db.DatabaseTrouble", "token and web recognise database failures with it"),
          entry("db.JdbcProxies", "ratelimit wraps the MariaDB DataSource with it, as db does"),
          entry("db.Vendor", "ratelimit, token and web pick their SQL or store by it"),
          entry("db.FailFast", "EclipseLink session customizer, named in persistence.xml"),
          entry("db.InstantConverter", "JPA converter, listed in persistence.xml"),
          entry("db.KeyedMigration", "account's and key's Java migrations extend it"),
          entry("db.LockRow", "audit and key lock with it"),
          entry("db.WordList", "JPA converter, listed in persistence.xml"),
          entry("http.AbortedRequest", "web uses it"),
          entry("http.ApiErrorBody", "admin and web answer with it"),
          entry("http.BufferedRequest", "ratelimit and web use it"),
          entry("http.ClientAddress", "servlet filter built by web; features read the address"),
          entry("http.ErrorBody", "key, metrics and web answer with it"),
          entry("http.Incident", "token and web log incidents"),
          entry("http.OAuthErrorBody", "token and web answer with it"),
          entry("http.PublishedDocumentServlet", "key's and revoke's servlets extend it"),
          entry("key.AlreadyRevokedException", "admin maps it"),
          entry("key.CurrentKey", "token signs with it"),
          entry("key.KeyEncryption", "web builds it"),
          entry("key.KeyEncryptionKeyIdMigration", "web lists it among Flyway's Java migrations"),
          entry("key.KeyNode", "web builds a node's keys through it"),
          entry("key.KeyRing", "admin, metrics, token and web use it"),
          entry("key.KeyRingState", "metrics reads it"),
          entry("key.KeyRotation", "admin, metrics and web use it"),
          entry("key.KeyRowMacMigration", "web lists it among Flyway's Java migrations"),
          entry("key.KeyStatus", "admin, console and the jte templates show it"),
          entry("key.PrivateKeys", "web builds it"),
          entry("key.PublicKeysResource", JERSEY + "; built by web"),
          entry("key.PublicKeysServlet", "servlet built by web"),
          entry("key.RsaProvider", "web chooses the provider"),
          entry("key.SigningKey", ENTITY + "; admin shows it"),
          entry("key.SigningKeys", "it.AdminAttackIT builds a node's store"),
          entry("key.SigningKeyRow", "the test kit loads it by name from the WAR it runs"),
          entry("key.TooManyKeysException", "admin maps it"),
          entry("key.UnknownKeyMapper", "Jersey provider built by web"),
          entry("launcher.Launcher", "the launcher's main class"),
          entry("launcher.LauncherLogManager", "LogManager loads it by name"),
          entry("launcher.AnyClientCertificate", "Tomcat loads it by name (trustManagerClassName)"),
          entry("launcher.TrustedProxyHeaders", "a valve: server.xml names it on the distribution"),
          entry(
              "launcher.JsonErrorPages",
              "Tomcat makes it by name (the host's errorReportValveClass)"),
          entry("metrics.MetricsServlet", "servlet built by web"),
          entry("text.ShownText", "account, admin and scope apply its rule"),
          entry("metrics.ServiceMetrics", "web builds it"),
          entry("ratelimit.ClockTime", "admin uses it"),
          entry("ratelimit.RateLimitFilter", "web and console use it"),
          entry("ratelimit.ClientCallLimit", "web puts it before revocation and introspection"),
          entry("revoke.AccountCutoff", "admin cuts off an account's tokens with its change"),
          entry("revoke.Revocations", "admin, token and web consult and feed it"),
          entry("revoke.RevocationsServlet", "servlet built by web"),
          entry("revoke.RevokedToken", "admin answers with what it revoked"),
          entry("token.ClientCall", "ratelimit parses revocation and introspection calls"),
          entry("ratelimit.RateLimiter", "web builds it"),
          entry("scope.ChannelGrant", "admin and token use it"),
          entry("scope.GrantedScopes", "token uses it"),
          entry("scope.InvalidScopeException", "admin and token use it"),
          entry("scope.Scope", ENTITY + "; admin and token use it"),
          entry("scope.ScopeCatalog", "admin, metrics, token and web use it"),
          entry("token.ClientKeySets", "web builds it"),
          entry("token.DiscoveryResource", JERSEY + "; built by web"),
          entry("token.FailureBudget", "ratelimit uses it"),
          entry("token.OAuthError", "ratelimit and web use it"),
          entry("token.PresentedCertificate", "ratelimit reads the certificate as the token path"),
          entry(
              "account.CertificateSubject",
              "admin registers a tls_client_auth subject that the token path matches"),
          entry("token.TokenAnswer", "console, ratelimit and web use it"),
          entry("token.TokenBody", "ratelimit and web use it"),
          entry("token.TokenEndpoint", "web builds the token endpoint through it"),
          entry("token.TokenMeters", "ratelimit and web use it"),
          entry("token.TokenRequest", "ratelimit reads it"),
          entry("token.TokenServlet", "servlet built by web; ratelimit wraps it"),
          entry("token.UsedJtis", "web builds it"),
          entry("web.HealthResource", JERSEY),
          entry("web.Json", "key.KeyRingTest checks its JSON with the web's mapper"),
          entry("web.OpenApiResource", JERSEY),
          entry("web.Startup", "servlet listener named in web.xml"));

  @Test
  void whenServiceTypesAreScannedThenEveryPublicOneIsAllowedWithAReason() {
    List<String> unexplained =
        servicePublicTypes().stream().filter(type -> !ALLOWED.containsKey(type)).toList();

    assertEquals(List.of(), unexplained, "make these package-private, or say why not in ALLOWED");
  }

  @Test
  void whenAnAllowedTypeIsNoLongerPublicThenItsEntryIsGone() {
    List<String> stale =
        new TreeSet<>(ALLOWED.keySet())
            .stream().filter(type -> !servicePublicTypes().contains(type)).toList();

    assertEquals(List.of(), stale, "remove these from ALLOWED");
  }

  @Test
  void whenTheLibrariesAreScannedThenTheirPublishedApiIsLeftToThem() {
    assertTrue(publicTypes().contains("verify.jaxrs.BearerTokenFilter"), "the scan missed verify");
    assertFalse(servicePublicTypes().contains("verify.jaxrs.BearerTokenFilter"));
  }

  private static TreeSet<String> servicePublicTypes() {
    TreeSet<String> types = publicTypes();
    types.removeIf(type -> LIBRARIES.matcher(packageOf(type).replace('.', '/')).matches());
    return types;
  }

  /** Every public top-level type under {@link #ROOT}, as {@code package.Name}. */
  private static TreeSet<String> publicTypes() {
    TreeSet<String> types = new TreeSet<>();
    try (Stream<Path> files = Files.walk(ROOT)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String pkg = ROOT.relativize(file.getParent()).toString().replace('/', '.');
        Matcher type = PUBLIC_TYPE.matcher(Files.readString(file));
        while (type.find()) {
          types.add(pkg + "." + type.group(1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return types;
  }

  private static String packageOf(String type) {
    return type.substring(0, type.lastIndexOf('.'));
  }
}
