package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 20: {@code identity/metricsAccess} = {@code open}: /metrics without a token, and every
 * metric docs/observing.md lists is there.
 */
@ExtendWith(ArquillianExtension.class)
class MetricsOpenIT {
  /** docs/observing.md, the metric table: each name as the text format writes it. */
  static final List<String> DOCUMENTED =
      List.of(
          "identity_token_requests_total{outcome=\"issued\"}",
          "identity_token_requests_total{outcome=\"invalid_request\"}",
          "identity_token_requests_total{outcome=\"invalid_client\"}",
          "identity_token_requests_total{outcome=\"invalid_scope\"}",
          "identity_token_requests_total{outcome=\"unsupported_grant_type\"}",
          "identity_token_requests_total{outcome=\"rate_limit_exceeded\"}",
          "identity_token_requests_total{outcome=\"server_error\"}",
          "identity_token_request_duration_seconds_bucket{le=\"0.005\"}",
          "identity_token_request_duration_seconds_bucket{le=\"0.25\"}",
          "identity_token_request_duration_seconds_count",
          "identity_token_signature_duration_seconds_count",
          "identity_token_client_keyset_refusals_total{reason=\"not_yet_available\"}",
          "identity_token_client_keyset_refusals_total{reason=\"too_old\"}",
          "identity_token_rate_limited_total{budget=\"client_successes\"}",
          "identity_token_rate_limited_total{budget=\"client_address_failures\"}",
          "identity_token_rate_limited_total{budget=\"client_failures\"}",
          "identity_audit_refusals_total{event=\"token.refuse\",written=\"folded\"}",
          "identity_token_rate_limited_total{budget=\"address_failures\"}",
          "identity_signing_keys_listed ",
          "identity_signing_key_current_age_seconds ",
          "identity_signing_key_current_end_seconds ",
          "identity_signing_key_next_activation_seconds ",
          "identity_signing_keys_refresh_age_seconds ",
          "identity_signing_keys_refresh_failures_total ",
          "identity_scope_catalog_refresh_age_seconds ",
          "identity_accounts{status=\"active\"}",
          "identity_accounts{status=\"deactivated\"}",
          "identity_accounts{status=\"deleted\"}",
          "identity_account_secrets{state=\"due\"}",
          "identity_account_secrets{state=\"expired\"}",
          "identity_database_timeouts_total ",
          "identity_database_refusals_total ",
          "identity_database_connection_failures_total ",
          "identity_database_in_use ",
          "identity_database_ready ",
          "identity_token_introspections_total{result=\"active\"}",
          "identity_token_introspections_total{result=\"inactive\"}",
          "identity_revocations_stored_total{kind=\"token\"}",
          "identity_revocations_stored_total{kind=\"account\"}",
          "identity_revocations_stored_total{kind=\"capped\"}",
          "identity_revocations_in_force{kind=\"token\"}",
          "identity_revocations_in_force{kind=\"account\"}",
          "identity_revocation_feed_bytes ",
          "identity_revocations_refresh_age_seconds ",
          "jvm_memory_used_bytes",
          "jvm_gc_",
          "jvm_threads_live_threads",
          "jvm_classes_loaded_classes",
          "process_cpu_usage",
          "process_uptime_seconds",
          "process_files_open_files");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war(
        "metrics-open-" + UUID.randomUUID(),
        Map.of("identity/metricsAccess", "open", "identity/secretMaxAge", "P90D"));
  }

  @ArquillianResource URL base;

  @Test
  void whenOpenThenAnyoneReadsEveryDocumentedMetric() {
    HttpResponse<String> response = new Http(base).get("/metrics");

    assertEquals(200, response.statusCode(), response.body());
    for (String metric : DOCUMENTED) {
      assertTrue(response.body().contains(metric), metric + " missing in:\n" + response.body());
    }
  }
}
