package dev.platform.identity.console;

import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.AuditEventsResource;
import dev.platform.identity.admin.ScopesResource;
import dev.platform.identity.admin.ServiceAccountsResource;
import dev.platform.identity.admin.SigningKeysResource;
import dev.platform.identity.config.Settings;
import dev.platform.identity.ratelimit.RateLimitFilter;
import dev.platform.identity.verify.BearerVerifier;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;

/**
 * The console's parts for the composition root: its filter and pages, built over the API's own
 * resources and check. The headers of its answers come from {@link ConsoleHeaders}, a servlet
 * filter the root maps at {@link ConsoleHeaders#PATTERN}.
 *
 * @param api the administration API's resources, which the pages call
 */
public record Console(
    ServiceAccountsResource accounts,
    ScopesResource scopes,
    SigningKeysResource keys,
    AuditEventsResource audit) {

  /** Its Jersey components: the filter first, then the pages. */
  public List<Object> components(
      Settings settings,
      DataSource dataSource,
      AdminAuth admin,
      RateLimitFilter tokenEndpoint,
      BearerVerifier verifier,
      Clock clock,
      SecureRandom random) {
    Pages pages = new Pages();
    SessionCookies cookies =
        new SessionCookies(
            new SessionKeys(
                settings.keyEncryptionKey(), settings.previousKeyEncryptionKeys(), random),
            settings.issuer());
    EndedSessions ended = new EndedSessions(dataSource);
    Overview overview =
        new Overview(accounts, keys, pages, settings.secretRotation().maxAge(), clock);
    return List.of(
        new ConsoleAuth(admin, cookies, ended, pages, settings.consoleIdleTimeout(), clock),
        new ConsoleResource(
            tokenEndpoint, verifier, cookies, ended, pages, overview, clock, random),
        new ConsoleAccountsResource(accounts, pages),
        new ConsoleKeysResource(keys, pages, clock),
        new ConsoleScopesResource(scopes, pages),
        new ConsoleAuditResource(audit, pages));
  }
}
