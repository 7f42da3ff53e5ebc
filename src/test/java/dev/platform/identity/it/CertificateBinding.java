package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.CertificateThumbprint;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Issue 39 on a server as it is deployed (the Tomcat distribution, Payara Micro): a
 * self_signed_tls_client_auth account registered through {@code /admin/v1} with the {@code
 * identity:audit.read} scope, its token got with its certificate, and that token used at {@code GET
 * /admin/v1/audit-events}, where {@code AdminAuth} admits a bound token only with the certificate
 * of the request. A {@link Channel} is how a request reaches the server: over TLS with a client
 * certificate or none, or over plain HTTP with a proxy's certificate header.
 */
final class CertificateBinding {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private CertificateBinding() {}

  record Answer(int status, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + this, e);
      }
    }

    @Override
    public String toString() {
      return status + " " + body;
    }
  }

  /** One way to the server: a request and its answer. */
  interface Channel {
    Answer send(String method, String target, String contentType, String authorization, String body)
        throws Exception;
  }

  /**
   * Over TLS to {@code base}, trusting {@code serverAuthority} and presenting {@code client}'s
   * certificate, or none when it is null. Each channel has an HTTP client of its own, so that no
   * connection, and no TLS session, is shared by channels with different certificates.
   */
  static Channel tls(URI base, X509Certificate serverAuthority, TestPki.Issued client) {
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(TestPki.clientContext(serverAuthority, client))
            .connectTimeout(TIMEOUT)
            .build();
    return (method, target, contentType, authorization, body) -> {
      HttpRequest.Builder request =
          Http.withBody(
              HttpRequest.newBuilder(base.resolve(target)).timeout(TIMEOUT), method, body);
      if (contentType != null) {
        request.header("Content-Type", contentType);
      }
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body());
    };
  }

  /**
   * Plain HTTP to {@code 127.0.0.1:port} from {@code localAddress}, as a proxy that ended TLS would
   * send it: {@code client}'s certificate as nginx's {@code ssl_client_escaped_cert} header, or no
   * such header when it is null.
   */
  static Channel proxied(String localAddress, int port, TestPki.Issued client) {
    BoundHttp http = new BoundHttp(localAddress, port);
    return (method, target, contentType, authorization, body) -> {
      List<String> headers = new ArrayList<>();
      if (contentType != null) {
        headers.add("Content-Type: " + contentType);
      }
      if (authorization != null) {
        headers.add("Authorization: " + authorization);
      }
      if (client != null) {
        headers.add("ssl_client_escaped_cert: " + escaped(client.certificate()));
      }
      BoundHttp.Exchange answer = http.send(method, target, headers, body, TIMEOUT);
      assertTrue(answer.answered(), method + " " + target + ": " + answer);
      return new Answer(answer.status(), answer.body());
    };
  }

  /** As nginx's {@code $ssl_client_escaped_cert}: the PEM, URL-encoded. */
  static String escaped(X509Certificate certificate) throws Exception {
    return URLEncoder.encode(pem(certificate), StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The certificate in PEM, as curl's {@code --cacert} and keytool read it. */
  static String pem(X509Certificate certificate) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  /** The client credentials grant for {@code clientId}, with {@code secret} or (null) without. */
  static Answer token(Channel channel, String clientId, String secret) throws Exception {
    String form = "grant_type=client_credentials&client_id=" + clientId;
    if (secret != null) {
      form += "&client_secret=" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    }
    return channel.send("POST", "/oauth/token", "application/x-www-form-urlencoded", null, form);
  }

  /** The access token of a 200 answer to {@link #token}. */
  static String accessToken(Answer answer) {
    assertEquals(200, answer.status(), answer.toString());
    return answer.json().path("access_token").asText();
  }

  /** The token's {@code cnf.x5t#S256}, read from its payload ("" when it has none). */
  static String boundThumbprint(String accessToken) throws Exception {
    JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(accessToken.split("\\.")[1]));
    return claims.path("cnf").path("x5t#S256").asText();
  }

  /**
   * A self_signed_tls_client_auth account of {@code client}'s certificate with {@code
   * identity:audit.read}, made by the administrator whose token is {@code adminToken}: its
   * client_id.
   */
  static String register(Channel channel, String adminToken, TestPki.Issued client)
      throws Exception {
    String jwks =
        "{\"keys\":["
            + new ECKey.Builder(Curve.P_256, (ECPublicKey) client.certificate().getPublicKey())
                .keyID("tls")
                .x509CertChain(
                    List.of(
                        com.nimbusds.jose.util.Base64.encode(client.certificate().getEncoded())))
                .build()
                .toJSONString()
            + "]}";
    Answer created =
        channel.send(
            "POST",
            "/admin/v1/service-accounts",
            "application/json",
            "Bearer " + adminToken,
            "{\"name\":\"certificate auditor\",\"organization_id\":\"org-t\","
                + "\"scopes\":[\"identity:audit.read\"],"
                + "\"token_endpoint_auth_method\":\"self_signed_tls_client_auth\",\"jwks\":"
                + jwks
                + "}");
    assertEquals(201, created.status(), created.toString());
    assertEquals(
        "self_signed_tls_client_auth", created.json().path("token_endpoint_auth_method").asText());
    return created.json().path("client_id").asText();
  }

  /** {@code GET /admin/v1/audit-events} with {@code accessToken}: the answer's status. */
  static Answer auditEvents(Channel channel, String accessToken) throws Exception {
    return channel.send(
        "GET", "/admin/v1/audit-events?limit=1", null, "Bearer " + accessToken, null);
  }

  /** The client's certificate's thumbprint, as {@code cnf.x5t#S256} must name it. */
  static String thumbprint(TestPki.Issued client) {
    return CertificateThumbprint.of(client.certificate());
  }

  /** SPEC 7.1's answer to a certificate client whose certificate did not reach the service. */
  static void assertMissingSecret(Answer answer) {
    assertEquals(400, answer.status(), answer.toString());
    assertEquals(
        "{\"error\":\"invalid_request\",\"error_description\":\"missing parameter: client_secret\"}",
        answer.body());
  }
}
