package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import dev.platform.identity.hsm.SoftHsm;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * Issue 24: a launcher whose signing keys may live in a SoftHSM token: started with the token
 * store's environment and a context file of its own, and what the HSM ITs ask of it (tokens, the
 * published kids, a rotation, readiness), each token verified by both the project's {@link
 * BearerVerifier} and Nimbus JOSE+JWT.
 */
final class HsmNode implements AutoCloseable {
  /** The issuer every HSM IT sets, so a restart on another port signs for the same one. */
  static final String ISSUER = "http://127.0.0.1";

  /** The JVM option the token label needs (issue 24); the slot does without it. */
  static final String WRAPPER_EXPORTS =
      "--add-exports=jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED";

  final LauncherIT.Launched launched;
  final Http http;

  private HsmNode(LauncherIT.Launched launched) throws IOException {
    this.launched = launched;
    this.http = new Http(new URL("http://127.0.0.1:" + launched.port + "/"));
  }

  /** Starts a launcher on {@code data} with {@code context}, able to open {@code hsm}'s tokens. */
  static HsmNode start(SoftHsm hsm, Path data, Path context, String... jvm) throws IOException {
    return new HsmNode(
        new LauncherIT.Launched(
            hsm.environment(),
            List.of(jvm),
            LauncherIT.freePort(),
            "--data",
            data.toString(),
            "--context",
            context.toString()));
  }

  /**
   * The entries of every HSM IT's context: the fixed issuer and a key ring refreshed each second.
   */
  static Map<String, String> baseEntries() {
    Map<String, String> entries = new LinkedHashMap<>();
    entries.put("identity/issuer", ISSUER);
    entries.put("identity/keyRingRefresh", "PT1S");
    return entries;
  }

  /** {@link #baseEntries()} and {@link #pkcs11Entries}. */
  static Map<String, String> tokenEntries(SoftHsm.Token token) {
    Map<String, String> entries = baseEntries();
    entries.putAll(pkcs11Entries(token));
    return entries;
  }

  /** New keys made in {@code token}, found by its slot, the PIN given as a value. */
  static Map<String, String> pkcs11Entries(SoftHsm.Token token) {
    Map<String, String> entries = new LinkedHashMap<>();
    entries.put("identity/keyStore", "pkcs11");
    entries.put("identity/pkcs11Library", SoftHsm.requiredLibrary().toString());
    entries.put("identity/pkcs11Slot", Long.toString(token.slot()));
    entries.put("identity/pkcs11Pin", SoftHsm.PIN);
    return entries;
  }

  /** The Environment elements of {@code entries}, for a context file. */
  static String environment(Map<String, String> entries) {
    StringBuilder xml = new StringBuilder();
    entries.forEach((name, value) -> xml.append(ClusterIT.env(name, value)));
    return xml.toString();
  }

  /** Writes a context file of {@code entries} alone (H2 under the data folder). */
  static Path context(Path file, Map<String, String> entries) throws IOException {
    return Files.writeString(file, "<Context>\n" + environment(entries) + "</Context>\n");
  }

  /** Writes the user PIN to an owner-only file, as {@code identity/pkcs11PinFile} wants it. */
  static Path pinFile(Path file) throws IOException {
    Files.writeString(file, SoftHsm.PIN + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  boolean awaitReady() throws InterruptedException {
    return launched.awaitListening();
  }

  String output() {
    return launched.output();
  }

  /** The bootstrap administrator this launcher printed (on the first start of its database). */
  Credentials printedAdmin() {
    Matcher id = LauncherIT.CLIENT_ID.matcher(output());
    Matcher secret = LauncherIT.SECRET.matcher(output());
    assertTrue(id.find() && secret.find(), "no bootstrap administrator printed: " + output());
    return new Credentials(id.group(1), secret.group(1));
  }

  HttpResponse<String> tokenResponse(Credentials client) {
    return http.tokenResponse(client.id(), client.secret());
  }

  /** An access token for {@code client}; fails unless the endpoint answers 200. */
  String token(Credentials client) {
    HttpResponse<String> response = tokenResponse(client);
    assertEquals(200, response.statusCode(), () -> response.body() + "\n" + output());
    return Http.json(response).get("access_token").asText();
  }

  /** The kids of {@code GET /api/public-keys}. */
  List<String> publishedKids() {
    List<String> kids = new ArrayList<>();
    Http.json(http.get("/api/public-keys")).get("keys").forEach(key -> kids.add(kid(key)));
    return kids;
  }

  /** {@code POST /admin/v1/signing-keys/rotate?immediate=true}: the new key signs at once. */
  String rotateNow(String adminToken) {
    HttpResponse<String> rotated =
        http.admin("POST", "/signing-keys/rotate?immediate=true", adminToken, null);
    assertEquals(201, rotated.statusCode(), rotated.body());
    return Http.json(rotated).get("kid").asText();
  }

  HttpResponse<String> readiness() {
    return http.get("/health/ready");
  }

  /**
   * {@code token} verifies against this node's published keys by the project's verifier and by
   * Nimbus, both saying it is {@code clientId}'s.
   */
  void assertVerifies(String token, String clientId) throws Exception {
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .keyLocator(
                RemotePublicKeys.builder().issuer(URI.create(http.uri("/").toString())).build())
            .build();
    assertEquals(clientId, verifier.verify("Bearer " + token, List.of()).clientId());

    SignedJWT signed = SignedJWT.parse(token);
    JWKSet keys = JWKSet.parse(http.get("/api/public-keys").body());
    RSAKey key = (RSAKey) keys.getKeyByKeyId(signed.getHeader().getKeyID());
    assertNotNull(key, "Nimbus: the token's kid is published");
    assertTrue(signed.verify(new RSASSAVerifier(key)), "Nimbus: the signature verifies");
    assertEquals(ISSUER, signed.getJWTClaimsSet().getIssuer());
    assertEquals(clientId, signed.getJWTClaimsSet().getSubject());
  }

  /** The kid in a token's header. */
  static String kid(String token) {
    return RemoteKeysIT.kid(token);
  }

  private static String kid(JsonNode jwk) {
    return jwk.get("kid").asText();
  }

  /**
   * Polls {@code condition} until it holds or {@code within} has passed; says whether it held. The
   * only waiting the HSM ITs do: on a condition, with a deadline.
   */
  static boolean eventually(Condition condition, Duration within) throws Exception {
    Instant deadline = Instant.now().plus(within);
    while (!condition.holds()) {
      if (Instant.now().isAfter(deadline)) {
        return false;
      }
      Thread.sleep(200);
    }
    return true;
  }

  /** Stops the launcher as Ctrl-C does. */
  @Override
  public void close() throws InterruptedException {
    launched.close();
  }

  /** A condition that may do I/O to be checked. */
  @FunctionalInterface
  interface Condition {
    boolean holds() throws Exception;
  }

  /** A client's id and secret. */
  record Credentials(String id, String secret) {}
}
