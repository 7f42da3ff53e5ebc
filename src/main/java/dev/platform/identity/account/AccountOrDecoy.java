package dev.platform.identity.account;

import dev.platform.identity.db.InstantConverter;
import dev.platform.identity.db.WordList;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.UUID;

/**
 * The token path's read: one statement that always returns exactly one row, the account's when it
 * exists and the decoy's otherwise, built into a {@link ServiceAccount} by the same code either
 * way. Materializing a found account as a managed entity while an unknown id returned nothing made
 * a wrong-secret answer about 4 µs slower for an existing client_id (README "Wrong-secret timing").
 * The decoy is never stored, so nothing can list, count or reach it.
 */
final class AccountOrDecoy {
  /**
   * The decoy's column values are the first sixteen parameters, the client_id the seventeenth. The
   * first column says whether the row is the account's. The previous secret's columns are null for
   * most accounts, so they take the decoy's values only when there is no account: the decoy has the
   * shape of an account in an overlap, and an account is never given its secrets. The last two
   * columns are the ids of the peppers the two digests are under; the decoy's are the current
   * pepper's, so it costs one HMAC like an account on the current pepper. Then the method, the
   * decoy's a secret one, a private_key_jwt account's keys, a tls_client_auth account's subject and
   * whether its tokens are bound to a certificate: a secret account's digest columns are null for a
   * key account, so the decoy's stand in for them, and no secret ever matches them. Each computed
   * column is named: a result column's label is otherwise the text of its expression, which H2
   * writes out anew for EclipseLink on every read. The annotation that prepares it needs a
   * constant, so the columns are written out here; ServiceAccountColumnsTest holds them, and their
   * positions, to the entity's mapping.
   */
  static final String SQL =
      "select a.client_id is not null as found,"
          + " coalesce(a.client_id, ?) as client_id, coalesce(a.name, ?) as name,"
          + " coalesce(a.organization_id, ?) as organization_id,"
          + " coalesce(a.accessible_orgs, ?) as accessible_orgs, coalesce(a.scopes, ?) as scopes,"
          + " coalesce(a.service_name, ?) as service_name, coalesce(a.status, ?) as status,"
          + " coalesce(a.secret_digest, ?) as secret_digest,"
          + " coalesce(a.created_at, ?) as created_at, coalesce(a.updated_at, ?) as updated_at,"
          + " coalesce(a.secret_created_at, ?) as secret_created_at,"
          + " case when a.client_id is null then ? else a.previous_secret_digest end"
          + " as previous_secret_digest,"
          + " case when a.client_id is null then ? else a.previous_secret_expires_at end"
          + " as previous_secret_expires_at,"
          + " coalesce(a.secret_pepper_id, ?) as secret_pepper_id,"
          + " case when a.client_id is null then ? else a.previous_secret_pepper_id end"
          + " as previous_secret_pepper_id,"
          + " coalesce(a.token_endpoint_auth_method, ?) as token_endpoint_auth_method,"
          + " a.jwks, a.jwks_uri, a.tls_client_auth_subject_kind, a.tls_client_auth_subject,"
          + " coalesce(a.certificate_bound_tokens, false) as certificate_bound_tokens,"
          + " coalesce(a.dpop_bound_tokens, false) as dpop_bound_tokens"
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
    return new ServiceAccounts.Lookup(flag(row[0]), account(row));
  }

  private static Object[] columns(ServiceAccount decoy) {
    ServiceAccount.Secrets secrets = decoy.secrets();
    SecretDigest.Digest previous =
        Objects.requireNonNullElse(secrets.previous(), secrets.current());
    return new Object[] {
      decoy.clientId().toString(),
      decoy.name(),
      decoy.organizationId(),
      WORDS.convertToDatabaseColumn(decoy.accessibleOrgs()),
      WORDS.convertToDatabaseColumn(decoy.scopes()),
      decoy.serviceName(),
      decoy.status().name(),
      secrets.current().value(),
      INSTANTS.convertToDatabaseColumn(decoy.createdAt()),
      INSTANTS.convertToDatabaseColumn(decoy.updatedAt()),
      INSTANTS.convertToDatabaseColumn(secrets.currentCreatedAt()),
      // Never a null parameter (PostgreSQL could not type it): a decoy without a previous secret
      // reads back as one whose previous secret is its current one, expired when it was made.
      previous.value(),
      INSTANTS.convertToDatabaseColumn(
          Objects.requireNonNullElse(secrets.previousExpiresAt(), secrets.currentCreatedAt())),
      secrets.current().pepperId(),
      previous.pepperId(),
      decoy.tokenEndpointAuthMethod()
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
        new ServiceAccount.Secrets(
            new SecretDigest.Digest((String) row[8], (String) row[14]),
            instant(row[11]),
            row[12] == null ? null : new SecretDigest.Digest((String) row[12], (String) row[15]),
            instant(row[13])),
        new ServiceAccount.Credential(
            (String) row[16],
            (String) row[17],
            (String) row[18],
            CertificateSubject.Kind.named((String) row[19])
                .map(kind -> new CertificateSubject(kind, (String) row[20])),
            flag(row[21]),
            flag(row[22])),
        instant(row[9]),
        instant(row[10]));
  }

  /**
   * A computed flag: a Boolean from PostgreSQL and H2, a number (1 or 0) from MariaDB, which has no
   * boolean type. Anything else is refused rather than read as false: a flag says whether tokens
   * must be bound.
   */
  static boolean flag(Object column) {
    if (column instanceof Boolean value) {
      return value;
    }
    if (column instanceof Number value) {
      return value.longValue() != 0;
    }
    throw new IllegalStateException("a flag column of the account lookup holds " + column);
  }

  /**
   * H2 answers an OffsetDateTime, the PostgreSQL driver a Timestamp. MariaDB types the COALESCE of
   * a DATETIME and a parameter as text, which is the UTC time as stored (db.MariaDbSession checks
   * that the connection writes UTC). Null stays null.
   */
  static Instant instant(Object column) {
    if (column == null) {
      return null;
    }
    if (column instanceof OffsetDateTime time) {
      return time.toInstant();
    }
    if (column instanceof String text) {
      return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    }
    return ((java.sql.Timestamp) column).toInstant();
  }
}
