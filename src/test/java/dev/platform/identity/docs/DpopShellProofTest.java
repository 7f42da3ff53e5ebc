package dev.platform.identity.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.jose.DpopProof;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.jose.Jwk;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40: docs/api.md's openssl DPoP proofs, its block run by bash as written (openssl 3 and
 * coreutils' basenc), each proof checked by the service's own {@link DpopProofs}, and its DER to
 * {@code R || S} conversion checked on signatures whose values are short or carry a sign octet.
 */
class DpopShellProofTest {
  static final String FIRST_LINE = "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256";
  static final URI TOKEN_URL = URI.create("http://127.0.0.1:8080/oauth/token");

  @TempDir static Path folder;
  static String block;

  @BeforeAll
  static void readTheBlock() throws IOException {
    String api = Files.readString(Path.of("docs/api.md"));
    int start = api.indexOf("```sh\n" + FIRST_LINE);
    assertTrue(start >= 0, "docs/api.md has no sh block starting with " + FIRST_LINE);
    start += "```sh\n".length();
    block = api.substring(start, api.indexOf("\n```\n", start) + 1);
  }

  /** The block, then {@code then}, run by bash in the test's folder: its standard output. */
  static String run(String then) throws Exception {
    Process bash =
        new ProcessBuilder("bash", "-c", "set -eu\n" + block + then)
            .directory(folder.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(bash.waitFor(60, TimeUnit.SECONDS), "bash ended");
    assertEquals(0, bash.exitValue(), out);
    return out;
  }

  /** A checker whose clock is fixed at {@code now}: the shell's proofs are made just after. */
  static DpopProofs checker(Instant now) {
    return DpopProofs.builder().clock(Clock.fixed(now, ZoneOffset.UTC)).build();
  }

  /** The proof that {@code command} prints, and the key the same run made. */
  record Made(String proof, PublicKey key) {}

  static Made made(String command) throws Exception {
    String out = run(command + "\necho\nopenssl pkey -in dpop.pem -pubout\n");
    String proof = out.substring(0, out.indexOf('\n'));
    return new Made(proof, publicKey(out.substring(out.indexOf('\n') + 1)));
  }

  static PublicKey publicKey(String pem) throws Exception {
    String body = pem.replaceAll("-----[A-Z ]+-----|\\s", "");
    return KeyFactory.getInstance("EC")
        .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
  }

  @Test
  void whenATokenProofIsMadeThenTheServicesCheckerTakesItAndBindsToTheKey() throws Exception {
    Instant now = Instant.now();
    Made made = made("dpop_proof POST http://127.0.0.1:8080/oauth/token");
    DpopProof checked =
        checker(now)
            .check(List.of(made.proof()), "POST", TOKEN_URL, Optional.empty(), Optional.empty());
    assertEquals(Jwk.thumbprint(made.key()), checked.thumbprint());
    assertEquals(32, checked.jti().length(), "openssl rand -hex 16");
  }

  @Test
  void whenAnApiProofCarriesANonceAndTheTokensHashThenBothAreChecked() throws Exception {
    Instant now = Instant.now();
    String token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln";
    Made made = made("dpop_proof GET https://orders.example/v1/orders n-0f3a '" + token + "'");
    DpopProof checked =
        checker(now)
            .check(
                List.of(made.proof()),
                "GET",
                URI.create("https://orders.example/v1/orders"),
                Optional.of(DpopProofs.accessTokenHash(token)),
                Optional.of("n-0f3a"));
    assertEquals(Jwk.thumbprint(made.key()), checked.thumbprint());
  }

  @Test
  void whenManyProofsAreMadeThenEverySignatureConvertsAndVerifies() throws Exception {
    Instant now = Instant.now();
    String proofs =
        run(
            "for i in $(seq 24); do dpop_proof POST http://127.0.0.1:8080/oauth/token; echo; done\n");
    DpopProofs checker = checker(now);
    List<String> each = proofs.lines().toList();
    assertEquals(24, each.size());
    for (String proof : each) {
      checker.check(List.of(proof), "POST", TOKEN_URL, Optional.empty(), Optional.empty());
    }
  }

  @Test
  void whenDerValuesAreShortOrCarryASignOctetThenRawIsTheirThirtyTwoBytesEach() throws Exception {
    byte[] shortR = new byte[31];
    shortR[0] = 0x01;
    shortR[30] = 0x7f;
    byte[] highS = new byte[32];
    highS[0] = (byte) 0x80;
    highS[31] = 0x02;
    Files.write(folder.resolve("signature.der"), der(shortR, highS));
    String raw = run("der2raw < signature.der | basenc --base16 -w0\n");
    assertEquals(
        "00"
            + HexFormat.of().withUpperCase().formatHex(shortR)
            + HexFormat.of().withUpperCase().formatHex(highS),
        raw);
  }

  /**
   * DER {@code SEQUENCE { INTEGER r, INTEGER s }}, each positive and minimal, as openssl writes.
   */
  static byte[] der(byte[] r, byte[] s) {
    byte[] rInteger = integer(r);
    byte[] sInteger = integer(s);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x30);
    out.write(rInteger.length + sInteger.length);
    out.writeBytes(rInteger);
    out.writeBytes(sInteger);
    return out.toByteArray();
  }

  private static byte[] integer(byte[] unsigned) {
    byte[] value = new BigInteger(1, unsigned).toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x02);
    out.write(value.length);
    out.writeBytes(value);
    return out.toByteArray();
  }
}
