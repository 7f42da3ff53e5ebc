package dev.platform.identity.it;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.ByteArrayAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WAR that {@code mvn package} built, unchanged, plus a test {@code META-INF/context.xml} as an
 * operator would write it: an H2 database in memory and fixed test secrets.
 */
public final class Deployments {
  /** The issuer the test deployments are configured with (arquillian.xml's port). */
  public static final String ISSUER = "http://127.0.0.1:" + System.getProperty("it.port", "18180");

  /** The configured bootstrap administrator of every test deployment. */
  public static final String ADMIN_ID = "00000000-0000-4000-8000-000000000001";

  /** A secret that needs form-encoding: RFC 6749 Appendix B applies inside HTTP Basic. */
  public static final String ADMIN_SECRET = "it:admin+secret%2F&=é ü-0123456789-abcdefghijklmnop";

  static final String PEPPER = "ZXhhbXBsZS1wZXBwZXItZm9yLXRlc3RzLW9ubHktMzJieXRlcw==";

  private static final Map<String, String> DEFAULTS =
      Map.of(
          "identity/issuer", ISSUER,
          "identity/keyEncryptionKey", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
          "identity/secretPepper", PEPPER,
          "identity/bootstrapClientId", ADMIN_ID,
          "identity/bootstrapClientSecret", ADMIN_SECRET);

  private Deployments() {}

  /** The real WAR with the test configuration on a fresh database, at the context root. */
  public static WebArchive war() {
    return war("it-" + UUID.randomUUID(), Map.of());
  }

  /**
   * The real WAR with the test configuration on the named in-memory H2 database (which a test in
   * the same JVM can open as a second node), where {@code overrides} replace or add entries.
   */
  public static WebArchive war(String database, Map<String, String> overrides) {
    Map<String, String> entries = new LinkedHashMap<>(DEFAULTS);
    entries.putAll(overrides);
    return ShrinkWrap.create(ZipImporter.class, "ROOT.war")
        .importFrom(new File("target/identity.war"))
        .as(WebArchive.class)
        .addAsManifestResource(
            new ByteArrayAsset(contextXml(database, entries).getBytes(StandardCharsets.UTF_8)),
            "context.xml");
  }

  /** The pepper of the test deployments, to digest secrets as the service does. */
  public static SecretKeySpec pepper() {
    return new SecretKeySpec(Base64.getDecoder().decode(PEPPER), "HmacSHA256");
  }

  private static String contextXml(String database, Map<String, String> entries) {
    StringBuilder xml =
        new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Context>\n");
    xml.append(
            "  <Resource name=\"jdbc/identity\" auth=\"Container\" type=\"javax.sql.DataSource\"")
        .append(" driverClassName=\"org.h2.Driver\" username=\"sa\" password=\"\"")
        .append(" url=\"jdbc:h2:mem:")
        .append(database)
        .append(
            ";DB_CLOSE_DELAY=-1\" maxTotal=\"10\" maxWaitMillis=\"5000\" closeMethod=\"close\"/>\n");
    entries.forEach(
        (name, value) ->
            xml.append("  <Environment name=\"")
                .append(name)
                .append("\" value=\"")
                .append(xmlAttribute(value))
                .append("\" type=\"java.lang.String\" override=\"false\"/>\n"));
    return xml.append("</Context>\n").toString();
  }

  private static String xmlAttribute(String value) {
    return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
  }
}
