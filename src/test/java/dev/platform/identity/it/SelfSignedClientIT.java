package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.SelfSignedTLSClientAuthentication;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.AccessTokenType;
import dev.platform.identity.it.LauncherIT.Launched;
import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.CertificateThumbprint;
import dev.platform.identity.verify.RemotePublicKeys;
import dev.platform.identity.verify.UnauthenticatedException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: a self_signed_tls_client_auth client (RFC 8705 §2.2) against the launcher jar over
 * HTTPS: registered through /admin/v1, its token bound to its certificate (§3) and accepted by a
 * {@link BearerVerifier} only with it; another self-signed certificate is invalid_client; the
 * Nimbus OAuth SDK's own client authentication gets a token.
 */
class SelfSignedClientIT {
  static final TestPki PKI = TestPki.authority("Self-signed IT CA");
  static final ObjectMapper JSON = new ObjectMapper();
  static final TestPki.Issued CLIENT = TestPki.selfSigned("CN=orders");
  static final TestPki.Issued OTHER = TestPki.selfSigned("CN=orders");

  /** The bootstrap administrator's Authorization header, once {@link #register} has made it. */
  static String adminBearer;

  @TempDir Path data;
  @TempDir Path secrets;

  String[] tls() throws Exception {
    char[] storePassword = "store-pw".toCharArray();
    Path store = secrets.resolve("server.p12");
    try (OutputStream out = Files.newOutputStream(store)) {
      PKI.server().keyStore("server", storePassword).store(out, storePassword);
    }
    Path password = secrets.resolve("password");
    Files.writeString(password, "store-pw\n");
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

  static HttpClient http(TestPki.Issued client) {
    return HttpClient.newBuilder()
        .sslContext(TestPki.clientContext(PKI.certificate(), client))
        .build();
  }

  static HttpResponse<String> post(
      HttpClient http, URI uri, String type, String authorization, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> put(URI uri, String body) throws Exception {
    return http(null)
        .send(
            HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Authorization", adminBearer)
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> token(URI base, TestPki.Issued client, String body) throws Exception {
    return post(
        http(client),
        base.resolve("/oauth/token"),
        "application/x-www-form-urlencoded",
        null,
        body);
  }

  static JsonNode claims(String tokenResponse) throws Exception {
    String token = JSON.readTree(tokenResponse).path("access_token").asText();
    return JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
  }

  static String jwks(TestPki.Issued issued) throws Exception {
    return "{\"keys\":["
        + new ECKey.Builder(Curve.P_256, (ECPublicKey) issued.certificate().getPublicKey())
            .keyID("tls")
            .x509CertChain(
                List.of(com.nimbusds.jose.util.Base64.encode(issued.certificate().getEncoded())))
            .build()
            .toJSONString()
        + "]}";
  }

  /** The bootstrap administrator's token, then the account made with it: its client_id. */
  static String register(URI base, String adminId, String adminSecret) throws Exception {
    HttpResponse<String> admin =
        token(
            base,
            null,
            "grant_type=client_credentials&client_id=" + adminId + "&client_secret=" + adminSecret);
    assertEquals(200, admin.statusCode(), admin.body());
    String bearer = "Bearer " + JSON.readTree(admin.body()).path("access_token").asText();
    adminBearer = bearer;
    HttpResponse<String> created =
        post(
            http(null),
            base.resolve("/admin/v1/service-accounts"),
            "application/json",
            bearer,
            "{\"name\":\"tls\",\"organization_id\":\"org-t\",\"scopes\":[\"marketing:*\"],"
                + "\"token_endpoint_auth_method\":\"self_signed_tls_client_auth\",\"jwks\":"
                + jwks(CLIENT)
                + "}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode account = JSON.readTree(created.body());
    assertEquals(
        "self_signed_tls_client_auth", account.path("token_endpoint_auth_method").asText());
    assertTrue(account.path("client_secret").isMissingNode(), created.body());
    HttpResponse<String> refused =
        post(
            http(null),
            base.resolve("/admin/v1/service-accounts"),
            "application/json",
            bearer,
            "{\"name\":\"tls\",\"organization_id\":\"org-t\",\"scopes\":[\"marketing:*\"],"
                + "\"token_endpoint_auth_method\":\"self_signed_tls_client_auth\","
                + "\"jwks_uri\":\"https://client.example/jwks\"}");
    assertEquals(400, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("jwks_uri is not accepted"), refused.body());
    return account.path("client_id").asText();
  }

  @Test
  void whenTheSelfSignedClientPresentsItsCertificateThenItsTokenIsBoundToIt() throws Exception {
    try (Launched launched = new Launched(LauncherIT.freePort(), tls())) {
      assertTrue(launched.awaitListening(), launched.output());
      Matcher adminId = LauncherIT.CLIENT_ID.matcher(launched.output());
      Matcher adminSecret = LauncherIT.SECRET.matcher(launched.output());
      assertTrue(adminId.find() && adminSecret.find(), launched.output());
      URI base = URI.create("https://127.0.0.1:" + launched.port);
      String id = register(base, adminId.group(1), adminSecret.group(1));
      String form = "grant_type=client_credentials&client_id=" + id;

      HttpResponse<String> issued = token(base, CLIENT, form);
      assertEquals(200, issued.statusCode(), issued.body());
      assertEquals("Bearer", JSON.readTree(issued.body()).path("token_type").asText());
      assertEquals(
          CertificateThumbprint.of(CLIENT.certificate()),
          claims(issued.body()).path("cnf").path("x5t#S256").asText());

      BearerVerifier verifier =
          BearerVerifier.builder()
              .issuer(base.toString())
              .keyLocator(RemotePublicKeys.builder().issuer(base).httpClient(http(null)).build())
              .build();
      String accessToken = JSON.readTree(issued.body()).path("access_token").asText();
      assertEquals(
          id, verifier.verifyToken(accessToken, CLIENT.certificate(), List.of()).clientId());
      assertThrows(
          UnauthenticatedException.class, () -> verifier.verifyToken(accessToken, List.of()));
      assertThrows(
          UnauthenticatedException.class,
          () -> verifier.verifyToken(accessToken, OTHER.certificate(), List.of()));

      HttpResponse<String> other = token(base, OTHER, form);
      assertEquals(401, other.statusCode(), other.body());
      assertEquals("invalid_client", JSON.readTree(other.body()).path("error").asText());
      HttpResponse<String> none = token(base, null, form);
      assertEquals(400, none.statusCode(), none.body());
      assertEquals(
          "{\"error\":\"invalid_request\",\"error_description\":\"missing parameter: client_secret\"}",
          none.body(),
          "SPEC 7.1's answer to a missing secret, as for any client_id");

      SSLContext context = TestPki.clientContext(PKI.certificate(), CLIENT);
      SelfSignedTLSClientAuthentication authentication =
          new SelfSignedTLSClientAuthentication(new ClientID(id), context.getSocketFactory());
      HTTPRequest request =
          new com.nimbusds.oauth2.sdk.TokenRequest(
                  base.resolve("/oauth/token"), authentication, new ClientCredentialsGrant())
              .toHTTPRequest();
      request.setSSLSocketFactory(context.getSocketFactory());
      TokenResponse response = TokenResponse.parse(request.send());
      assertTrue(response.indicatesSuccess(), response.toString());
      assertEquals(
          AccessTokenType.BEARER,
          response.toSuccessResponse().getTokens().getAccessToken().getType());
      String sdkToken = response.toSuccessResponse().getTokens().getAccessToken().getValue();
      assertEquals(id, verifier.verifyToken(sdkToken, CLIENT.certificate(), List.of()).clientId());

      // PUT .../jwks: a set without x5c is refused; the other certificate replaces this one.
      URI keys = base.resolve("/admin/v1/service-accounts/" + id + "/jwks");
      JsonNode withoutCertificate = JSON.readTree(jwks(OTHER));
      ((com.fasterxml.jackson.databind.node.ObjectNode) withoutCertificate.path("keys").get(0))
          .remove("x5c");
      HttpResponse<String> bare = put(keys, "{\"jwks\":" + withoutCertificate + "}");
      assertEquals(400, bare.statusCode(), bare.body());
      assertTrue(bare.body().contains("has no x5c"), bare.body());
      HttpResponse<String> replaced = put(keys, "{\"jwks\":" + jwks(OTHER) + "}");
      assertEquals(200, replaced.statusCode(), replaced.body());
      assertEquals(200, token(base, OTHER, form).statusCode());
      assertEquals(401, token(base, CLIENT, form).statusCode());
    }
  }
}
