package dev.platform.identity.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a service the kit runs to answer {@code /health/ready} with 200. */
final class ReadyProbe {
  private ReadyProbe() {}

  /**
   * Returns once {@code issuer}'s {@code /health/ready} answers 200; throws, with {@code detail}
   * (the service's log, where there is one), when {@code starting} says it is no longer starting or
   * {@code limit} has passed.
   */
  static void await(URI issuer, Duration limit, BooleanSupplier starting, Supplier<String> detail)
      throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(issuer.resolve("/health/ready"))
            .timeout(Duration.ofSeconds(2))
            .build();
    long deadline = System.nanoTime() + limit.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!starting.getAsBoolean()) {
        throw new IllegalStateException(
            "the identity service at " + issuer + " did not start" + detail.get());
      }
      try {
        HttpResponse<String> answer = http.send(ready, HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          return;
        }
        last = answer.statusCode() + " " + answer.body();
      } catch (IOException notYet) {
        last = notYet.toString();
      }
      // Polls a service that is starting; no test time passes here.
      Thread.sleep(50);
    }
    throw new IllegalStateException(
        "the identity service at "
            + issuer
            + " was not ready within "
            + limit
            + " (last: "
            + last
            + ")"
            + detail.get());
  }
}
