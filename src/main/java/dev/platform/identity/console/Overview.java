package dev.platform.identity.console;

import dev.platform.identity.admin.AccountJson;
import dev.platform.identity.admin.ServiceAccountsResource;
import dev.platform.identity.admin.SigningKeysResource;
import dev.platform.identity.key.KeyStatus;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's first page: the accounts the caller reaches, counted by status, with the secrets
 * due for rotation or expired; the key that signs now and when the next one takes over. Each part
 * through the API's own resource, shown only where the caller holds its scopes.
 */
final class Overview {
  /** A secret this close to its maximum age is due (as the metric and the alert count it). */
  static final Duration DUE_WITHIN = Duration.ofDays(14);

  private final ServiceAccountsResource accounts;
  private final SigningKeysResource keys;
  private final Pages pages;
  private final Optional<Duration> secretMaxAge;
  private final Clock clock;

  Overview(
      ServiceAccountsResource accounts,
      SigningKeysResource keys,
      Pages pages,
      Optional<Duration> secretMaxAge,
      Clock clock) {
    this.accounts = accounts;
    this.keys = keys;
    this.pages = pages;
    this.secretMaxAge = secretMaxAge;
    this.clock = clock;
  }

  Response page(ContainerRequestContext request) {
    Instant now = clock.instant();
    Map<String, Object> parameters = new HashMap<>();
    parameters.put("frame", Pages.frame(request, "Overview", ""));
    boolean mayAccounts = Pages.allows(request, ServiceAccountsResource.class, "list");
    boolean mayKeys = Pages.allows(request, SigningKeysResource.class, "list");
    parameters.put("mayAccounts", mayAccounts);
    parameters.put("mayKeys", mayKeys);
    Map<String, Integer> byStatus = new LinkedHashMap<>();
    byStatus.put("active", 0);
    byStatus.put("deactivated", 0);
    int due = 0;
    int expired = 0;
    if (mayAccounts) {
      for (AccountJson account : accounts.list(null, request).items()) {
        byStatus.merge(account.status(), 1, Integer::sum);
        // A private_key_jwt account has no secret to fall due.
        Optional<Instant> end =
            Optional.ofNullable(account.secretCreatedAt())
                .flatMap(made -> secretMaxAge.map(Instant.parse(made)::plus));
        if (end.isPresent() && !end.get().isAfter(now)) {
          expired++;
        } else if (end.isPresent() && !end.get().isAfter(now.plus(DUE_WITHIN))) {
          due++;
        }
      }
    }
    parameters.put("byStatus", byStatus);
    parameters.put("secretMaxAge", secretMaxAge.map(Duration::toString).orElse(null));
    parameters.put("due", due);
    parameters.put("expired", expired);
    List<KeyStatus> ring = mayKeys ? keys.list(request).items() : List.of();
    parameters.put(
        "currentKey", ring.stream().filter(KeyStatus::isCurrent).findFirst().orElse(null));
    parameters.put(
        "nextKey",
        ring.stream()
            .filter(key -> key.state().equals("scheduled"))
            .min(Comparator.comparing(KeyStatus::activeFrom))
            .orElse(null));
    return pages.render("overview.jte", parameters);
  }
}
