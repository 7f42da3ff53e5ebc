package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.CountingDataSource;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** DESIGN decision 2: a token request is one primary-key read, and nothing else, in SQL. */
class TokenPathTest {
  final Settings settings = TestNodes.settings();
  final CountingDataSource counting =
      new CountingDataSource(TestDatabases.h2DataSource("path-" + UUID.randomUUID()));
  final TestNodes.Node node = TestNodes.node(counting.dataSource(), settings, Clock.systemUTC());

  /** A table named after {@code from} or {@code join}; a subquery there names none. */
  static final Pattern TABLE = Pattern.compile("\\b(?:from|join) \"?(\\w+)");

  /** The primary key bound to a parameter, with or without a table alias. */
  static final Pattern BY_KEY = Pattern.compile("\\b(?:\\w+\\.)?\"?client_id\"? ?= ?\\?");

  @AfterEach
  void close() {
    node.close();
  }

  @Test
  void whenATokenIsIssuedOrAnUnknownClientRefusedThenTheOnlySqlIsOneAccountRead() {
    node.rotation().start();
    SecretDigest digest = new SecretDigest(settings.secrets().pepper());
    ServiceAccounts accounts = new ServiceAccounts(node.database());
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
            id,
            new AccountProfile("reader", "org", List.of(), List.of("catalog:*"), "catalog"),
            digest.of("secret-of-the-reader"),
            Clock.systemUTC().instant()));
    TokenServlet endpoint =
        TestEndpoints.token(node, settings, Clock.systemUTC(), Optional.empty());
    String body =
        "grant_type=client_credentials&client_id=" + id + "&client_secret=secret-of-the-reader";
    endpoint.issue(body, "application/x-www-form-urlencoded", null, null, "127.0.0.1");

    counting.reset();
    TokenResponseBody token =
        endpoint.issue(body, "application/x-www-form-urlencoded", null, "", "127.0.0.1");

    assertEquals("catalog:*", token.scope());
    List<String> statements = counting.statements();
    assertEquals(1, statements.size(), statements.toString());
    String sql = normalized(statements.get(0));
    assertTrue(sql.startsWith("select "), sql);
    assertEquals(Set.of("service_account"), tables(sql), sql);
    assertTrue(BY_KEY.matcher(sql).find(), "a read by the primary key: " + sql);

    counting.reset();
    String unknown = body.replace(id.toString(), UUID.randomUUID().toString());
    assertThrows(
        OAuthError.class,
        () -> endpoint.issue(unknown, "application/x-www-form-urlencoded", null, "", "127.0.0.1"));

    // Issue 26: an unknown client_id runs the very same statement, so the same database work.
    assertEquals(statements, counting.statements());
  }

  @Test
  void whenThePreviousSecretOfAnAccountInItsOverlapIsUsedThenTheOnlySqlIsStillOneAccountRead() {
    node.rotation().start();
    SecretDigest digest = new SecretDigest(settings.secrets().pepper());
    ServiceAccounts accounts = new ServiceAccounts(node.database());
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
            id,
            new AccountProfile("reader", "org", List.of(), List.of("catalog:*"), "catalog"),
            digest.of("old-secret-of-the-reader"),
            Clock.systemUTC().instant()));
    accounts.change(
        id,
        account ->
            account.replaceSecret(
                digest.of("new-secret-of-the-reader"),
                Duration.ofDays(1),
                Clock.systemUTC().instant()));
    TokenServlet endpoint =
        TestEndpoints.token(node, settings, Clock.systemUTC(), Optional.of(Duration.ofDays(90)));
    String body =
        "grant_type=client_credentials&client_id=" + id + "&client_secret=old-secret-of-the-reader";
    endpoint.issue(body, "application/x-www-form-urlencoded", null, null, "127.0.0.1");

    counting.reset();
    endpoint.issue(body, "application/x-www-form-urlencoded", null, null, "127.0.0.1");

    List<String> statements = counting.statements();
    assertEquals(1, statements.size(), statements.toString());
    assertTrue(normalized(statements.get(0)).startsWith("select "), statements.get(0));
    assertTrue(BY_KEY.matcher(normalized(statements.get(0))).find(), statements.get(0));
    counting.reset();
    String unknown = body.replace(id.toString(), UUID.randomUUID().toString());
    assertThrows(
        OAuthError.class,
        () -> endpoint.issue(unknown, "application/x-www-form-urlencoded", null, "", "127.0.0.1"));
    assertEquals(statements, counting.statements());
  }

  /** Lower case, one space for any run of white space: the wording of the SQL does not matter. */
  static String normalized(String sql) {
    return sql.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim();
  }

  static Set<String> tables(String sql) {
    return TABLE.matcher(sql).results().map(table -> table.group(1)).collect(Collectors.toSet());
  }
}
