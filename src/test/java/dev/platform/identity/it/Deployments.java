package dev.platform.identity.it;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WAR that {@code mvn package} built, unchanged, plus a test {@code META-INF/context.xml} as an
 * operator would write it: a fresh H2 database per deployment and fixed test secrets.
 */
public final class Deployments {
  /** The issuer the test deployments are configured with (arquillian.xml's port). */
  public static final String ISSUER = "http://127.0.0.1:18180";

  /** The configured bootstrap administrator of every test deployment. */
  public static final String ADMIN_ID = "00000000-0000-4000-8000-000000000001";

  public static final String ADMIN_SECRET = "it-admin-secret-0123456789-abcdefghijklmnop";

  private static final Map<String, String> DEFAULTS =
      Map.of(
          "identity/issuer", ISSUER,
          "identity/keyEncryptionKey", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
          "identity/secretPepper", "ZXhhbXBsZS1wZXBwZXItZm9yLXRlc3RzLW9ubHktMzJieXRlcw==",
          "identity/bootstrapClientId", ADMIN_ID,
          "identity/bootstrapClientSecret", ADMIN_SECRET);

  private Deployments() {}

  /** The real WAR with the test configuration, deployed at the context root. */
  public static WebArchive war() {
    return war(Map.of());
  }

  /** The real WAR with the test configuration, where {@code overrides} replace or add entries. */
  public static WebArchive war(Map<String, String> overrides) {
    Map<String, String> entries = new LinkedHashMap<>(DEFAULTS);
    entries.putAll(overrides);
    return ShrinkWrap.create(ZipImporter.class, "ROOT.war")
        .importFrom(new File("target/identity.war"))
        .as(WebArchive.class)
        .addAsManifestResource(new StringAsset(contextXml(entries)), "context.xml");
  }

  private static String contextXml(Map<String, String> entries) {
    StringBuilder xml = new StringBuilder("<Context>\n");
    xml.append(
            "  <Resource name=\"jdbc/identity\" auth=\"Container\" type=\"javax.sql.DataSource\"")
        .append(" driverClassName=\"org.h2.Driver\" username=\"sa\" password=\"\"")
        .append(" url=\"jdbc:h2:mem:it-")
        .append(UUID.randomUUID())
        .append(
            ";DB_CLOSE_DELAY=-1\" maxTotal=\"10\" maxWaitMillis=\"5000\" closeMethod=\"close\"/>\n");
    entries.forEach(
        (name, value) ->
            xml.append("  <Environment name=\"")
                .append(name)
                .append("\" value=\"")
                .append(value)
                .append("\" type=\"java.lang.String\" override=\"false\"/>\n"));
    return xml.append("</Context>\n").toString();
  }
}
