package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.lang.reflect.Field;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.persistence.descriptors.ClassDescriptor;
import org.eclipse.persistence.mappings.DatabaseMapping;
import org.eclipse.persistence.sessions.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The service_account table is mapped three times: by the entity, by the token path's native read
 * ({@link AccountOrDecoy}, a positional mapping of every column) and by the schema's migrations.
 * These hold them to one list, the entity's mapped columns, so a column added to one and not the
 * others fails here rather than reading back as null on the token path.
 */
class ServiceAccountColumnsTest {
  /** Columns the native read takes from the account only: the decoy is a secret account. */
  private static final Set<String> NOT_FROM_THE_DECOY =
      Set.of(
          "jwks",
          "jwks_uri",
          "tls_client_auth_subject_kind",
          "tls_client_auth_subject",
          "certificate_bound_tokens",
          "dpop_bound_tokens");

  private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");

  final Database database = TestDatabases.h2();

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void whenTheSchemaHasAColumnThenTheEntityMapsIt() {
    Set<String> schema =
        database.read(
            em ->
                new TreeSet<>(
                    em
                        .createNativeQuery(
                            "select lower(column_name) from information_schema.columns"
                                + " where lower(table_name) = 'service_account'")
                        .getResultList()
                        .stream()
                        .map(String.class::cast)
                        .toList()));

    assertEquals(schema, mapped().keySet());
  }

  @Test
  void whenTheNativeReadSelectsColumnsThenTheyAreEveryMappedColumn() {
    String select = AccountOrDecoy.SQL.substring(0, AccountOrDecoy.SQL.indexOf(" from "));
    Set<String> selected = new TreeSet<>();
    Matcher column = Pattern.compile("\\ba\\.([a-z_]+)").matcher(select);
    while (column.find()) {
      selected.add(column.group(1));
    }

    assertEquals(mapped().keySet(), selected);
  }

  @Test
  void whenEveryColumnHoldsItsOwnValueThenTheNativeReadPutsEachInItsPlace() {
    ServiceAccount stored = filled(1);
    ServiceAccount decoy = filled(100);
    // Every column is filled, which no valid account does (a secret or keys, not both): this row
    // is about positions, not about which accounts may exist.
    database.write(
        em ->
            em.createNativeQuery(
                    "alter table service_account drop constraint service_account_credential")
                .executeUpdate());
    database.write(
        em -> {
          em.persist(stored);
          return null;
        });

    ServiceAccounts.Lookup lookup =
        new ServiceAccounts(database).findOrDecoy(stored.clientId(), decoy);

    assertTrue(lookup.found());
    assertEquals(values(stored, Set.of()), values(lookup.account(), Set.of()));
  }

  @Test
  void whenNoAccountThenTheNativeReadBuildsTheDecoyFromEveryColumnItPassed() {
    ServiceAccount decoy = filled(100);

    ServiceAccounts.Lookup lookup =
        new ServiceAccounts(database).findOrDecoy(UUID.randomUUID(), decoy);

    assertEquals(values(decoy, NOT_FROM_THE_DECOY), values(lookup.account(), NOT_FROM_THE_DECOY));
  }

  /** Column name to entity attribute, as EclipseLink maps them. */
  private Map<String, String> mapped() {
    return database.read(
        em -> {
          ClassDescriptor descriptor = em.unwrap(Session.class).getDescriptor(ServiceAccount.class);
          Map<String, String> columns = new TreeMap<>();
          for (DatabaseMapping mapping : descriptor.getMappings()) {
            columns.put(
                mapping.getField().getName().toLowerCase(Locale.ROOT), mapping.getAttributeName());
          }
          return columns;
        });
  }

  /** An account whose every mapped attribute holds a value of its own, numbered from {@code n}. */
  private ServiceAccount filled(int n) {
    ServiceAccount account =
        ServiceAccount.create(
            UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("x"), BASE);
    int i = n;
    for (String attribute : mapped().values()) {
      Field field = field(attribute);
      Class<?> type = field.getType();
      Object value;
      if (attribute.equals("clientId")) {
        value = UUID.randomUUID().toString();
      } else if (attribute.equals("tlsSubjectKind")) {
        // Read back only when it names a form, and its value only as that form's.
        value = CertificateSubject.Kind.SAN_EMAIL.metadataName();
      } else if (attribute.equals("tlsSubject")) {
        value = "v" + i + "@example.com";
      } else if (type == boolean.class) {
        value = true;
      } else if (type == String.class) {
        value = "v" + i;
      } else if (type == List.class) {
        value = List.of("w" + i, "x" + i);
      } else if (type == Instant.class) {
        value = BASE.plusSeconds(i);
      } else if (type == AccountStatus.class) {
        value = AccountStatus.values()[i % AccountStatus.values().length];
      } else {
        throw new AssertionError("no test value for " + attribute + " of " + type);
      }
      set(account, field, value);
      i++;
    }
    return account;
  }

  /** Every mapped attribute's value but those of {@code columns}. */
  private Map<String, Object> values(ServiceAccount account, Set<String> columns) {
    Map<String, Object> values = new TreeMap<>();
    mapped()
        .forEach(
            (column, attribute) -> {
              if (!columns.contains(column)) {
                values.put(column, get(account, field(attribute)));
              }
            });
    return values;
  }

  private static Field field(String attribute) {
    try {
      Field field = ServiceAccount.class.getDeclaredField(attribute);
      field.setAccessible(true);
      return field;
    } catch (NoSuchFieldException e) {
      throw new AssertionError(e);
    }
  }

  private static void set(ServiceAccount account, Field field, Object value) {
    try {
      field.set(account, value);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  private static Object get(ServiceAccount account, Field field) {
    try {
      return field.get(account);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
