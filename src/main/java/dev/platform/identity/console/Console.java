package dev.platform.identity.console;

import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.AuditEventsResource;
import dev.platform.identity.admin.ScopesResource;
import dev.platform.identity.admin.ServiceAccountsResource;
import dev.platform.identity.admin.SigningKeysResource;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import dev.platform.identity.ratelimit.RateLimitFilter;
import dev.platform.identity.token.TokenEndpoint;
import dev.platform.identity.verify.BearerVerifier;
import java.net.URI;
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

  /**
   * Its Jersey components: the filter first, then the pages.
   *
   * @param signIns where sign-ins, refused sign-ins and sign-outs are audited and stored
   */
  public List<Object> components(
      URI issuer,
      Settings.Secrets secrets,
      Settings.Accounts accountRules,
      Settings.Operations operations,
      DataSource dataSource,
      AdminAuth admin,
      RateLimitFilter tokenEndpoint,
      BearerVerifier verifier,
      AuditLog signIns,
      Clock clock,
      SecureRandom random) {
    Pages pages = new Pages();
    SessionCookies cookies =
        new SessionCookies(
            new SessionKeys(
                secrets.keyEncryptionKey(), secrets.previousKeyEncryptionKeys(), random),
            issuer);
    EndedSessions ended = new EndedSessions(dataSource);
    Overview overview =
        new Overview(accounts, keys, pages, accountRules.secretRotation().maxAge(), clock);
    SessionProofs proofs = new SessionProofs(admin, clock, random);
    return List.of(
        new ConsoleAuth(
            admin, proofs, cookies, ended, pages, operations.consoleIdleTimeout(), clock),
        new ConsoleResource(
            new SignIn(tokenEndpoint, TokenEndpoint.url(issuer), verifier, proofs, random),
            signIns,
            cookies,
            ended,
            pages,
            overview,
            clock,
            random),
        new ConsoleAccountsResource(accounts, pages),
        new ConsoleKeysResource(keys, pages, clock),
        new ConsoleScopesResource(scopes, pages),
        new ConsoleAuditResource(audit, pages));
  }
}
