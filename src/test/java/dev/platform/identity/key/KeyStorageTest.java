package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.TestNodes.Node;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** DESIGN decision 5: the database alone never yields a private key. */
class KeyStorageTest {
  /**
   * PKCS#8 version 0 followed by the rsaEncryption AlgorithmIdentifier (OID 1.2.840.113549.1.1.1).
   */
  private static final byte[] PKCS8_RSA = bytes("02 01 00 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01");

  private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/_-]{16,}={0,2}");

  @Test
  void whenKeysStoredThenNeitherTheKeyTableNorTheDatabaseHoldsAPrivateKeyEncoding()
      throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    try (Node node = TestNodes.node(TestNodes.newDatabase(), TestNodes.settings(), clock)) {
      node.rotation().rotateIfDue();
      clock.advance(Duration.ofDays(1));
      node.rotation().rotate();
      node.rotation().rotate(true);
      node.rotation().revoke(node.ring().current().kid());
      assertEquals(4, node.keys().all().size());

      List<String> cells = keyTableCells(node);
      List<String> dump = scriptOfWholeDatabase(node);

      assertTrue(cells.size() >= 4 * 7, "every non-null cell of the four rows");
      for (String text : cells) {
        assertFalse(holdsPrivateKey(text), text);
      }
      for (String line : dump) {
        assertFalse(holdsPrivateKey(line), line);
      }
    }
  }

  @Test
  void whenPrivateKeyIsInTheTextThenTheScanFindsItRawInBase64AndInPem() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair pair = generator.generateKeyPair();
    byte[] pkcs8 = pair.getPrivate().getEncoded();
    String raw = new String(pkcs8, StandardCharsets.ISO_8859_1);
    String base64 = Base64.getEncoder().encodeToString(pkcs8);
    String shifted = Base64.getUrlEncoder().encodeToString(prefixed(pkcs8));
    String pem = "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----";

    assertTrue(holdsPrivateKey(raw));
    assertTrue(holdsPrivateKey("insert values ('" + base64 + "')"));
    assertTrue(holdsPrivateKey(shifted));
    assertTrue(holdsPrivateKey(pem));
    assertFalse(holdsPrivateKey(Base64.getEncoder().encodeToString(pair.getPublic().getEncoded())));
  }

  /** Every column of every row of {@code signing_key}, as text. */
  private static List<String> keyTableCells(Node node) throws Exception {
    List<String> cells = new ArrayList<>();
    try (Connection connection = node.database().dataSource().getConnection();
        Statement query = connection.createStatement();
        ResultSet rows = query.executeQuery("select * from signing_key")) {
      int columns = rows.getMetaData().getColumnCount();
      while (rows.next()) {
        for (int column = 1; column <= columns; column++) {
          String value = rows.getString(column);
          if (value != null) {
            cells.add(value);
          }
        }
      }
    }
    return cells;
  }

  /** H2's SQL dump of the whole database: every table, every row. */
  private static List<String> scriptOfWholeDatabase(Node node) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Connection connection = node.database().dataSource().getConnection();
        Statement query = connection.createStatement();
        ResultSet script = query.executeQuery("script")) {
      while (script.next()) {
        lines.add(script.getString(1));
      }
    }
    return lines;
  }

  /** The PEM label, or a PKCS#8 RSA encoding raw or in base64 at any alignment. */
  static boolean holdsPrivateKey(String text) {
    if (text.contains("PRIVATE KEY")
        || contains(text.getBytes(StandardCharsets.ISO_8859_1), PKCS8_RSA)) {
      return true;
    }
    Matcher tokens = BASE64.matcher(text);
    while (tokens.find()) {
      String token = tokens.group().replace('-', '+').replace('_', '/').replace("=", "");
      for (int drop = 0; drop < 4; drop++) {
        if (contains(decode(token.substring(Math.min(drop, token.length()))), PKCS8_RSA)) {
          return true;
        }
      }
    }
    return false;
  }

  private static byte[] decode(String token) {
    String whole = token.substring(0, token.length() - token.length() % 4);
    return Base64.getDecoder().decode(whole);
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    return KeyEncryptionTest.contains(haystack, needle);
  }

  private static byte[] prefixed(byte[] pkcs8) {
    byte[] shifted = new byte[pkcs8.length + 1];
    System.arraycopy(pkcs8, 0, shifted, 1, pkcs8.length);
    return shifted;
  }

  private static byte[] bytes(String hex) {
    String[] parts = hex.split(" ");
    byte[] bytes = new byte[parts.length];
    for (int i = 0; i < parts.length; i++) {
      bytes[i] = (byte) Integer.parseInt(parts[i], 16);
    }
    return bytes;
  }
}
