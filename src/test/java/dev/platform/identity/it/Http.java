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
import java.util.ArrayList;
import java.util.List;

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

  /** {@code request} with {@code method} and {@code body} (none when null), for a small body. */
  public static HttpRequest.Builder withBody(
      HttpRequest.Builder request, String method, String body) {
    return request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
  }

  /**
   * {@code method path} with {@code body} and these header lines: a body over {@link #LARGE_BODY}
   * is sent after asking ({@link RawHttp#sendAsking}), any other by the JDK client.
   */
  public HttpResponse<String> send(String method, String path, String body, String... headers) {
    HttpRequest.Builder request = withBody(request(path), method, body);
    for (String header : headers) {
      int colon = header.indexOf(':');
      request.header(header.substring(0, colon), header.substring(colon + 1).trim());
    }
    if (body == null || body.length() <= LARGE_BODY) {
      return send(request.build());
    }
    URI target = uri(path);
    return new RawHttp(base)
        .sendAsking(
            method,
            target.getRawPath() + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery()),
            body,
            headers)
        .asResponse(request.build());
  }

  public HttpResponse<String> admin(String method, String path, String bearer, String json) {
    List<String> headers = new ArrayList<>();
    if (json != null) {
      headers.add("Content-Type: application/json");
    }
    if (bearer != null) {
      headers.add("Authorization: Bearer " + bearer);
    }
    return send(method, "/admin/v1" + path, json, headers.toArray(String[]::new));
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
