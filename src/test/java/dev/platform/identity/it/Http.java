package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small black-box HTTP client for the ITs: real requests, JSON bodies read by Jackson. */
public final class Http {
  /**
   * HTTP/1.1, as the servers under test speak it: the JDK's default HTTP/2 sends an h2c upgrade on
   * each new connection, and Payara's Grizzly sometimes answers one by dropping the connection (a
   * NullPointerException in its Http2Stream, seen once in CI as "EOF reached while reading").
   */
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;

  public Http(URL base) {
    this.base = URI.create(base.toString());
  }

  public URI uri(String path) {
    return base.resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  public HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20));
  }

  public HttpResponse<String> get(String path) {
    return send(request(path).GET().build());
  }

  public HttpResponse<String> send(HttpRequest request) {
    try {
      return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * An administration API call: {@code /admin/v1} + path, a bearer token (or none), JSON (or none).
   */
  /** Bodies longer than this (the token endpoint's cap, 16 KiB) are sent after asking. */
  static final int LARGE_BODY = 16 * 1024;

  /**
   * {@code request} with {@code method} and {@code body} (none when null). A body over {@link
   * #LARGE_BODY} is sent after asking (RFC 9110 §10.1.1): past its cap the service refuses it
   * unread and closes the connection (issue 35), and a client that sends it anyway can have its
   * read of the refusal cut by the reset that closing over unread bytes makes; asked first, the
   * refusal comes instead of a 100 and no body is sent.
   */
  public static HttpRequest.Builder withBody(
      HttpRequest.Builder request, String method, String body) {
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return request.expectContinue(body != null && body.length() > LARGE_BODY);
  }

  public HttpResponse<String> admin(String method, String path, String bearer, String json) {
    HttpRequest.Builder request = withBody(request("/admin/v1" + path), method, json);
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    return send(request.build());
  }

  /**
   * The answer to a client credentials grant for {@code clientId} and {@code secret}, sent in the
   * form (client_secret_post), whatever it is.
   */
  public HttpResponse<String> tokenResponse(String clientId, String secret) {
    String form =
        "grant_type=client_credentials&client_id="
            + URLEncoder.encode(clientId, StandardCharsets.UTF_8)
            + "&client_secret="
            + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    return send(
        request("/oauth/token")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build());
  }

  /** An access token for {@code clientId}, which must be given one. */
  public String token(String clientId, String secret) {
    HttpResponse<String> response = tokenResponse(clientId, secret);
    assertEquals(200, response.statusCode(), response.body());
    return json(response).get("access_token").asText();
  }

  /** An access token for the bootstrap administrator of {@link Deployments}. */
  public String adminToken() {
    return token(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
  }

  public static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + response.body(), e);
    }
  }
}
