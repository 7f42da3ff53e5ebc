package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.DoublePredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §2: the real Prometheus (Debian package {@code prometheus}, path in {@code
 * -Didentity.prometheus}; {@code -Pservers} sets it) scrapes the launcher with the example config
 * of conf/prometheus/prometheus.yml, target and credentials adjusted, authenticating through its
 * {@code oauth2:} block at our token endpoint; the issued-token counter it stored rises by the
 * tokens this test requested.
 */
@EnabledIfSystemProperty(named = "identity.prometheus", matches = ".+")
class PrometheusIT {
  static final int TOKENS = 5;
  static final Duration DEADLINE = Duration.ofSeconds(30);
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path data;
  @TempDir Path prometheusHome;

  LauncherIT.Launched launched;
  Process prometheus;

  @AfterEach
  void stop() throws InterruptedException {
    if (prometheus != null) {
      prometheus.destroy();
      if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly().waitFor();
      }
    }
    if (launched != null) {
      launched.close();
    }
  }

  @Test
  void whenPrometheusScrapesThroughOAuth2ThenTheIssuedCounterRisesByTheTokensRequested()
      throws Exception {
    launched = new LauncherIT.Launched(LauncherIT.freePort(), "--data", data.toString());
    assertTrue(launched.awaitListening(), launched.output());
    String base = "http://127.0.0.1:" + launched.port;
    String admin = token(base, match(LauncherIT.CLIENT_ID), match(LauncherIT.SECRET));
    JsonNode scraper = createScraper(base, admin);
    Path secret = prometheusHome.resolve("identity-metrics.secret");
    Files.createFile(
        secret, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(secret, scraper.get("client_secret").asText());

    int port = LauncherIT.freePort();
    startPrometheus(config(launched.port, scraper.get("client_id").asText(), secret), port);
    String api = "http://127.0.0.1:" + port;
    String issued = "identity_token_requests_total{job=\"identity\",outcome=\"issued\"}";
    double before = await(api, issued, value -> true);
    for (int i = 0; i < TOKENS; i++) {
      token(base, scraper.get("client_id").asText(), scraper.get("client_secret").asText());
    }
    double after = await(api, issued, value -> value >= before + TOKENS);

    assertEquals(before + TOKENS, after);
    assertEquals(1.0, await(api, "up{job=\"identity\"}", value -> true));
  }

  String match(Pattern pattern) {
    Matcher found = pattern.matcher(launched.output());
    assertTrue(found.find(), launched.output());
    return found.group(1);
  }

  /**
   * conf/prometheus/prometheus.yml with the launcher as target and token endpoint, this test's
   * account and secret file, plain HTTP and a 1 s scrape; each change must find its line, so the
   * example stays the config tested here.
   */
  static String config(int target, String clientId, Path secretFile) throws IOException {
    String config = Files.readString(Path.of("conf/prometheus/prometheus.yml"));
    String alerts = Path.of("conf/prometheus/alerts.yml").toAbsolutePath().toString();
    config = replace(config, "scrape_interval: 15s", "scrape_interval: 1s");
    config = replace(config, "evaluation_interval: 15s", "evaluation_interval: 1s");
    config = replace(config, "  - alerts.yml", "  - " + alerts);
    config = replace(config, "scheme: https", "scheme: http");
    config = replace(config, "client_id: \\S+", "client_id: " + clientId);
    config = replace(config, "client_secret_file: \\S+", "client_secret_file: " + secretFile);
    config =
        replace(
            config, "token_url: \\S+", "token_url: http://127.0.0.1:" + target + "/oauth/token");
    return replace(
        config,
        "(?m)^(      - targets:)\\n(          - identity-\\S+\\n)+",
        "$1 ['127.0.0.1:" + target + "']\n");
  }

  private static String replace(String text, String regex, String replacement) {
    Matcher found = Pattern.compile(regex).matcher(text);
    assertTrue(found.find(), "conf/prometheus/prometheus.yml has no " + regex);
    return found.replaceFirst(Matcher.quoteReplacement(replacement).replace("\\$1", "$1"));
  }

  void startPrometheus(String config, int port) throws IOException {
    Path file = prometheusHome.resolve("prometheus.yml");
    Files.writeString(file, config);
    prometheus =
        new ProcessBuilder(
                List.of(
                    System.getProperty("identity.prometheus"),
                    "--config.file=" + file,
                    "--storage.tsdb.path=" + prometheusHome.resolve("tsdb"),
                    "--web.listen-address=127.0.0.1:" + port))
            .redirectErrorStream(true)
            .redirectOutput(prometheusHome.resolve("prometheus.log").toFile())
            .start();
  }

  /** Polls Prometheus' query API until {@code query} has a value that {@code accepts} takes. */
  double await(String api, String query, DoublePredicate accepts) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    OptionalDouble last = OptionalDouble.empty();
    while (System.nanoTime() < deadline) {
      last = query(api, query);
      if (last.isPresent() && accepts.test(last.getAsDouble())) {
        return last.getAsDouble();
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        query
            + " was "
            + last
            + " at the deadline; Prometheus said:\n"
            + (Files.exists(prometheusHome.resolve("prometheus.log"))
                ? Files.readString(prometheusHome.resolve("prometheus.log"))
                : "")
            + "\nthe launcher said:\n"
            + launched.output());
  }

  static OptionalDouble query(String api, String query) throws InterruptedException {
    try {
      HttpResponse<String> response =
          CLIENT.send(
              HttpRequest.newBuilder(
                      URI.create(
                          api
                              + "/api/v1/query?query="
                              + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode result = JSON.readTree(response.body()).path("data").path("result");
      return result.size() == 1
          ? OptionalDouble.of(Double.parseDouble(result.get(0).path("value").get(1).asText()))
          : OptionalDouble.empty();
    } catch (IOException e) {
      return OptionalDouble.empty(); // not listening yet
    }
  }

  static String token(String base, String clientId, String secret) throws Exception {
    HttpResponse<String> response =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(base + "/oauth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "grant_type=client_credentials&client_id="
                            + URLEncoder.encode(clientId, StandardCharsets.UTF_8)
                            + "&client_secret="
                            + URLEncoder.encode(secret, StandardCharsets.UTF_8)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body()).get("access_token").asText();
  }

  static JsonNode createScraper(String base, String adminToken) throws Exception {
    HttpResponse<String> response =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(base + "/admin/v1/service-accounts"))
                .header("Authorization", "Bearer " + adminToken)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"name\":\"prometheus\",\"organization_id\":\"root\","
                            + "\"scopes\":[\"identity:metrics\"]}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(201, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }
}
