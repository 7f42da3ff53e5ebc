package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The attacker review of issue 23: the header is read before the signature is checked, so a forger
 * chooses its bytes. Whatever they are (deep nesting, huge numbers and names, UTF-16/32 and BOM
 * prefixes, random bytes), the verifier answers with a {@link BearerTokenException} and never
 * accepts: any other exception would be a 500 in the service and a 503 in the ready-made filters.
 */
class BearerVerifierForgedHeaderTest {
  static final KeyPair KEYS = TestTokens.rsaKeyPair();
  static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  final BearerVerifier verifier =
      BearerVerifier.builder()
          .issuer(ISSUER)
          .clock(CLOCK)
          .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
          .build();

  @Test
  void whenAForgerWritesAnyHeaderThenTheAnswerIsAlwaysABearerRefusal() {
    List<byte[]> headers = new ArrayList<>();
    String deep = "[".repeat(3000) + "]".repeat(3000);
    headers.add(("{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"x\":" + deep + "}").getBytes());
    headers.add(
        ("{\"alg\":\"RS256\",\"kid\":\""
                + KID
                + "\",\"x\":"
                + "{\"a\":".repeat(1200)
                + "1"
                + "}".repeat(1200)
                + "}")
            .getBytes());
    headers.add(("{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"x\":1e99999999999}").getBytes());
    headers.add(
        ("{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"x\":" + "9".repeat(5000) + "}").getBytes());
    headers.add(
        ("{\"" + "a".repeat(5000) + "\":1,\"alg\":\"RS256\",\"kid\":\"" + KID + "\"}").getBytes());
    headers.add(
        ("{\"alg\":\"RS256\",\"kid\":\"" + KID + "\"}").getBytes(Charset.forName("UTF-32LE")));
    headers.add(new byte[] {0, 0, 0, '{', 0, 0, (byte) 0xD8, 0, 0, 0, 0, '}'});
    headers.add(new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF, 0, 0, 0, '{'});
    headers.add(new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xD8, 0, 0, '{'});
    headers.add(new byte[] {'{', 0});
    headers.add(new byte[] {0, '{'});
    headers.add(new byte[] {0, 0, 0, 0});
    headers.add(new byte[] {'{', 0, 0, 0, '"', 0, 0, 0});
    headers.add(new byte[] {0, 0, '{', 0});
    headers.add(new byte[] {0, '{', 0, 0});
    Random random = new Random(23);
    for (int i = 0; i < 20000; i++) {
      byte[] b = new byte[1 + random.nextInt(24)];
      random.nextBytes(b);
      if (random.nextBoolean()) {
        for (int j = 0; j < b.length; j++) {
          String alphabet = "{}[]\":,0123456789.eE+-tfnul \\u\u0000ABalgkidRS256";
          b[j] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
        }
      }
      headers.add(b);
    }
    String rest =
        "." + B64.encodeToString("{}".getBytes()) + "." + B64.encodeToString(new byte[256]);
    int odd = 0;
    for (byte[] header : headers) {
      String token = B64.encodeToString(header) + rest;
      try {
        verifier.verify("Bearer " + token, List.of());
        odd++;
      } catch (BearerTokenException e) {
        // expected
      } catch (RuntimeException e) {
        odd++;
      }
    }
    assertEquals(0, odd, "headers not refused as a bearer refusal");
  }
}
