package dev.platform.identity.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the kit chooses for each service it starts, fresh at every start: the key-encryption key,
 * the pepper, the bootstrap administrator and the database's password. So the kit holds them
 * without reading the service's output, and no token of one start verifies against another's keys.
 */
record KitSecrets(
    byte[] keyEncryptionKey, byte[] pepper, String adminId, String adminSecret, String dbPassword) {

  static KitSecrets generate(SecureRandom random) {
    return new KitSecrets(
        bytes(random, 32),
        bytes(random, 32),
        UUID.randomUUID().toString(),
        Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(random, 32)),
        Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(random, 24)));
  }

  /** The key-encryption key, as the service reads it from {@code identity/keyEncryptionKey}. */
  SecretKey kek() {
    return new SecretKeySpec(keyEncryptionKey, "AES");
  }

  /**
   * The launcher's {@code --context} file, or a deployed WAR's {@code META-INF/context.xml}: the
   * DataSource, {@code identity/issuer} where one is given (the launcher sets its own from its
   * port), and the key-encryption key, the pepper and the administrator's secret in owner-only
   * files in {@code folder}, which the context names in their file forms ({@code
   * identity/keyEncryptionKeyFile} ...). A container unpacks a deployed WAR where it chooses
   * (Arquillian's {@code tomcatHome}: target/, or a folder in /tmp) with the user's umask, readable
   * by every user of the machine, and the service answers them all on loopback. The database's
   * password stays: its H2 files are in the owner-only folder, and where it has a port (the child's
   * {@code AUTO_SERVER}) that port is on loopback and needs this password.
   */
  String contextXml(String jdbcUrl, URI issuer, Path folder) throws IOException {
    Map<String, String> entries = new LinkedHashMap<>();
    if (issuer != null) {
      entries.put("identity/issuer", issuer.toString());
    }
    entries.put(
        "identity/keyEncryptionKeyFile",
        KitFolder.ownerOnlyFile(
                folder, "key-encryption-key", Base64.getEncoder().encodeToString(keyEncryptionKey))
            .toString());
    entries.put(
        "identity/secretPepperFile",
        KitFolder.ownerOnlyFile(folder, "secret-pepper", Base64.getEncoder().encodeToString(pepper))
            .toString());
    entries.put("identity/bootstrapClientId", adminId);
    entries.put(
        "identity/bootstrapClientSecretFile",
        KitFolder.ownerOnlyFile(folder, "bootstrap-secret", adminSecret).toString());
    return contextXml(jdbcUrl, entries);
  }

  private String contextXml(String jdbcUrl, Map<String, String> entries) {
    StringBuilder xml =
        new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Context>\n");
    xml.append(
            "  <Resource name=\"jdbc/identity\" auth=\"Container\" type=\"javax.sql.DataSource\"")
        .append(" driverClassName=\"org.h2.Driver\" username=\"sa\" password=\"")
        .append(dbPassword)
        .append("\" url=\"")
        .append(jdbcUrl)
        .append(";WRITE_DELAY=0\"")
        .append(" maxTotal=\"20\" maxWaitMillis=\"5000\" closeMethod=\"close\"/>\n");
    entries.forEach(
        (name, value) ->
            xml.append("  <Environment name=\"")
                .append(name)
                .append("\" value=\"")
                .append(value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;"))
                .append("\" type=\"java.lang.String\" override=\"false\"/>\n"));
    return xml.append("</Context>\n").toString();
  }

  private static byte[] bytes(SecureRandom random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  @Override
  public String toString() {
    return "KitSecrets[" + adminId + "]"; // never the secrets
  }
}
