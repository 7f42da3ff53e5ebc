package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.it.LauncherIT.Launched;
import dev.platform.identity.tls.TestPki;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: the launcher jar with {@code --tls-keystore}, in its own process: HTTPS with or without
 * a client certificate, and a wrong password stopping it with one line.
 */
class LauncherTlsIT {
  static final TestPki PKI = TestPki.authority("Launcher CA");

  @TempDir Path data;
  @TempDir Path secrets;

  String[] tls(String storePassword, String filePassword) throws Exception {
    Path store = secrets.resolve("server.p12");
    try (OutputStream out = Files.newOutputStream(store)) {
      PKI.server()
          .keyStore("server", storePassword.toCharArray())
          .store(out, storePassword.toCharArray());
    }
    Path password = secrets.resolve("password");
    Files.writeString(password, filePassword + "\n");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    return new String[] {
      "--data",
      data.toString(),
      "--tls-keystore",
      store.toString(),
      "--tls-keystore-password-file",
      password.toString()
    };
  }

  static HttpResponse<String> token(int port, TestPki.Issued client, String id, String secret)
      throws Exception {
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(TestPki.clientContext(PKI.certificate(), client))
            .build();
    return http.send(
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/oauth/token"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String claims(String tokenResponse) {
    String token = tokenResponse.replaceAll(".*\"access_token\":\"([^\"]+)\".*", "$1");
    return new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
  }

  @Test
  void whenStartedWithAKeyStoreThenASecretClientGetsATokenOverHttpsWithOrWithoutACertificate()
      throws Exception {
    try (Launched launched = new Launched(LauncherIT.freePort(), tls("store-pw", "store-pw"))) {
      assertTrue(launched.awaitListening(), launched.output());
      assertTrue(launched.output().contains("listening on https://127.0.0.1:"), launched.output());
      Matcher id = LauncherIT.CLIENT_ID.matcher(launched.output());
      Matcher secret = LauncherIT.SECRET.matcher(launched.output());
      assertTrue(id.find() && secret.find(), launched.output());

      HttpResponse<String> bare = token(launched.port, null, id.group(1), secret.group(1));
      HttpResponse<String> withCertificate =
          token(launched.port, TestPki.selfSigned("CN=orders"), id.group(1), secret.group(1));

      assertEquals(200, bare.statusCode(), bare.body());
      assertEquals(200, withCertificate.statusCode(), withCertificate.body());
      assertTrue(claims(bare.body()).contains("\"iss\":\"https://127.0.0.1:"), bare.body());
    }
  }

  @Test
  void whenThePasswordIsWrongThenTheLauncherStopsWithOneLineAndNoStackTrace() throws Exception {
    Launched launched = new Launched(LauncherIT.freePort(), tls("store-pw", "not-it"));
    try (launched) {
      assertTrue(launched.process.waitFor(90, TimeUnit.SECONDS), launched.output());
    }
    String output = launched.output();
    assertEquals(1, launched.process.exitValue(), output);
    assertTrue(output.contains(": wrong password in " + secrets.resolve("password")), output);
    assertFalse(output.contains("\tat "), output);
    assertFalse(output.contains("store-pw") || output.contains("not-it"), output);
  }
}
