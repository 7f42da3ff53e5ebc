package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The bytes a row's MAC covers, and issue 24's rows of keys in a token. */
class KeyRowTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00.123456Z");

  private static KeyRow row(String privateKey, String nonce, PrivateKeyHome home) {
    return new KeyRow("kid", "public", privateKey, nonce, T, T, null, null, T, home);
  }

  @Test
  void whenTheKeyIsInTheDatabaseThenTheEncodingIsTheOneRowsWereMacedUnderBefore() throws Exception {
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(expected)) {
      for (String text : new String[] {"kid", "public", "sealed", "nonce"}) {
        out.writeInt(text.length());
        out.write(text.getBytes(StandardCharsets.UTF_8));
      }
      for (Instant time : new Instant[] {T, T, null, null, T}) {
        out.writeBoolean(time != null);
        if (time != null) {
          out.writeLong(time.getEpochSecond());
          out.writeInt(time.getNano() / 1000);
        }
      }
    }

    assertArrayEquals(
        expected.toByteArray(), row("sealed", "nonce", PrivateKeyHome.DATABASE).encoded());
  }

  @Test
  void whenTheKeyIsInATokenThenItsRowEncodesApartFromAnyDatabaseRow() {
    byte[] token = row(null, null, PrivateKeyHome.PKCS11).encoded();

    assertFalse(Arrays.equals(token, row("", "", PrivateKeyHome.DATABASE).encoded()));
    assertFalse(Arrays.equals(token, row(null, null, PrivateKeyHome.DATABASE).encoded()));
  }
}
