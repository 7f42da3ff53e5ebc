package dev.platform.identity.account;

import dev.platform.identity.db.InstantConverter;
import dev.platform.identity.db.WordList;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The token path's read (issue 26): one statement that always returns exactly one row, the
 * account's when it exists and the decoy's otherwise, built into a {@link ServiceAccount} by the
 * same code either way. Materializing a found account as a managed entity while an unknown id
 * returned nothing made a wrong-secret answer about 4 µs slower for an existing client_id (README
 * "Wrong-secret timing"). The decoy is never stored, so nothing can list, count or reach it.
 */
final class AccountOrDecoy {
  /**
   * The decoy's column values are the first ten parameters, the client_id the eleventh. The first
   * column says whether the row is the account's.
   */
  static final String SQL =
      "select a.client_id is not null,"
          + " coalesce(a.client_id, ?), coalesce(a.name, ?), coalesce(a.organization_id, ?),"
          + " coalesce(a.accessible_orgs, ?), coalesce(a.scopes, ?), coalesce(a.service_name, ?),"
          + " coalesce(a.status, ?), coalesce(a.secret_digest, ?), coalesce(a.created_at, ?),"
          + " coalesce(a.updated_at, ?)"
          + " from (select 1 as one) always_one_row"
          + " left join service_account a on a.client_id = ?";

  /** Named, so EclipseLink prepares it once rather than on every token request. */
  static final String QUERY = "ServiceAccount.accountOrDecoy";

  private static final WordList WORDS = new WordList();
  private static final InstantConverter INSTANTS = new InstantConverter();

  private AccountOrDecoy() {}

  static ServiceAccounts.Lookup read(EntityManager em, UUID clientId, ServiceAccount decoy) {
    var query = em.createNamedQuery(QUERY);
    Object[] parameters = columns(decoy);
    for (int i = 0; i < parameters.length; i++) {
      query.setParameter(i + 1, parameters[i]);
    }
    query.setParameter(parameters.length + 1, clientId.toString());
    Object[] row = (Object[]) query.getSingleResult();
    return new ServiceAccounts.Lookup(Boolean.TRUE.equals(row[0]), account(row));
  }

  private static Object[] columns(ServiceAccount decoy) {
    return new Object[] {
      decoy.clientId().toString(),
      decoy.name(),
      decoy.organizationId(),
      WORDS.convertToDatabaseColumn(decoy.accessibleOrgs()),
      WORDS.convertToDatabaseColumn(decoy.scopes()),
      decoy.serviceName(),
      decoy.status().name(),
      decoy.secretDigest(),
      INSTANTS.convertToDatabaseColumn(decoy.createdAt()),
      INSTANTS.convertToDatabaseColumn(decoy.updatedAt())
    };
  }

  private static ServiceAccount account(Object[] row) {
    return ServiceAccount.stored(
        (String) row[1],
        new AccountProfile(
            (String) row[2],
            (String) row[3],
            WORDS.convertToEntityAttribute((String) row[4]),
            WORDS.convertToEntityAttribute((String) row[5]),
            (String) row[6]),
        AccountStatus.valueOf((String) row[7]),
        (String) row[8],
        instant(row[9]),
        instant(row[10]));
  }

  /** H2 answers an OffsetDateTime, the PostgreSQL driver a Timestamp. */
  private static Instant instant(Object column) {
    return column instanceof OffsetDateTime time
        ? time.toInstant()
        : ((java.sql.Timestamp) column).toInstant();
  }
}
