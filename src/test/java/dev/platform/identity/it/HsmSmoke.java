package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.hsm.SoftHsm;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 24's smoke run on a real server with {@code identity/keyStore} = {@code pkcs11}: a SoftHSM2
 * token store of the test's own, the user PIN in an owner-only file, and the check that a token
 * issued by the server is signed by a key that is listed and is a private key in the token.
 */
final class HsmSmoke {
  /** The JVM option that the token label needs (docs/hsm.md). */
  static final String ADD_EXPORTS =
      "--add-exports=jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED";

  final Path library = SoftHsm.requiredLibrary();
  final Path folder;
  final SoftHsm hsm;
  final SoftHsm.Token token;

  private HsmSmoke(Path folder, SoftHsm hsm, SoftHsm.Token token) {
    this.folder = folder;
    this.hsm = hsm;
    this.token = token;
  }

  /** A token store in {@code folder}, with one token labelled {@code label}. */
  static HsmSmoke in(Path folder, String label) throws IOException, InterruptedException {
    Files.createDirectories(folder);
    SoftHsm hsm = SoftHsm.in(folder);
    return new HsmSmoke(folder, hsm, hsm.initToken(label));
  }

  /** Writes the user PIN to {@code file}, owner-only, as the docs say. */
  static void pinFile(Path file) throws IOException {
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, SoftHsm.PIN + "\n");
  }

  /**
   * A token granted to {@code id}: its {@code kid} is in {@code /api/public-keys} and is a private
   * key of the token; {@code /health/ready} says the signing key is up. Returns the kid.
   */
  String assertSignedInTheToken(SmokeSuite suite, Http http, String id, String secret)
      throws IOException, InterruptedException {
    HttpResponse<String> answer = suite.token(id, secret, true);
    assertEquals(200, answer.statusCode(), answer.body());
    String jwt = Http.json(answer).path("access_token").asText();
    JsonNode header =
        new ObjectMapper()
            .readTree(
                new String(
                    Base64.getUrlDecoder().decode(jwt.substring(0, jwt.indexOf('.'))),
                    StandardCharsets.UTF_8));
    String kid = header.path("kid").asText();
    List<String> listed = new ArrayList<>();
    Http.json(http.get("/api/public-keys"))
        .path("keys")
        .forEach(key -> listed.add(key.path("kid").asText()));
    assertTrue(listed.contains(kid), kid + " is not listed: " + listed);
    HttpResponse<String> ready = http.get("/health/ready");
    assertEquals(200, ready.statusCode(), ready.body());
    List<String> inToken = privateKeysInToken();
    assertTrue(inToken.contains(kid), kid + " is not a private key in the token: " + inToken);
    return kid;
  }

  /** The aliases of the token's private keys, by {@code keytool} through SunPKCS11. */
  List<String> privateKeysInToken() throws IOException, InterruptedException {
    Path config = folder.resolve("sunpkcs11.cfg");
    Files.writeString(config, "name=smoke\nlibrary=" + library + "\nslot=" + token.slot() + "\n");
    Path output = folder.resolve("keytool.out");
    ProcessBuilder keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-list",
                "-keystore",
                "NONE",
                "-storetype",
                "PKCS11",
                "-providerclass",
                "sun.security.pkcs11.SunPKCS11",
                "-providerarg",
                config.toString(),
                "-storepass",
                SoftHsm.PIN)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    keytool.environment().putAll(hsm.environment());
    Process process = keytool.start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("keytool -list did not end: " + Files.readString(output));
    }
    String listing = Files.readString(output);
    assertEquals(0, process.exitValue(), listing);
    return listing
        .lines()
        .filter(line -> line.contains(", PrivateKeyEntry"))
        .map(line -> line.substring(0, line.indexOf(',')))
        .toList();
  }
}
