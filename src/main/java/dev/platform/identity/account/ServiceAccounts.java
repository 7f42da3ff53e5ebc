package dev.platform.identity.account;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.InstantConverter;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

/** The stored service accounts. Every read goes to the database (DESIGN decision 3). */
public final class ServiceAccounts {
  private static final String PEPPER_PAIRS =
      "select current_pepper, previous_pepper, count(*) from (select secret_pepper_id"
          + " current_pepper, case when previous_secret_expires_at > ? then"
          + " previous_secret_pepper_id end previous_pepper from service_account"
          + " where status <> ? and secret_digest is not null) pairs"
          + " group by current_pepper, previous_pepper";
  private static final InstantConverter INSTANTS = new InstantConverter();

  private final Database database;

  public ServiceAccounts(Database database) {
    this.database = database;
  }

  /** The account with this client_id, tombstones included: one primary-key read. */
  public Optional<ServiceAccount> find(UUID clientId) {
    return database.read(em -> Optional.ofNullable(find(em, clientId)));
  }

  /**
   * Why a token of this service issued to {@code clientId} at {@code issuedAt} no longer speaks for
   * its account, if it does not: the account is not active (deactivated, deleted, or no account at
   * all), or it changed since the token was issued (a new secret after a theft, a deactivation and
   * reactivation). One primary-key read. {@code iat} has whole seconds, so a token of the same
   * second as the change cannot be told apart from an older one: it is refused too, and its holder
   * fetches another a second later. An account never changed since its creation has no older tokens
   * to end. The administration API and {@code /metrics} ask this on every request, so a
   * deactivation ends their access at once, not when the token expires.
   */
  public Optional<String> refusal(String clientId, Optional<Instant> issuedAt) {
    Optional<ServiceAccount> account;
    try {
      account = find(UUID.fromString(clientId));
    } catch (IllegalArgumentException e) {
      account = Optional.empty();
    }
    if (account.filter(ServiceAccount::isActive).isEmpty()) {
      return Optional.of("the caller's account is not active");
    }
    ServiceAccount caller = account.get();
    Instant changed = caller.updatedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    boolean everChanged = !caller.updatedAt().equals(caller.createdAt());
    if (everChanged && issuedAt.map(issued -> !issued.isAfter(changed)).orElse(true)) {
      return Optional.of("the token was issued before the account last changed");
    }
    return Optional.empty();
  }

  /**
   * What the token path reads to authenticate a client: the account with this client_id, tombstones
   * included, or else {@code decoy}, in one statement that returns one row and is built the same
   * way in both cases, so the time taken tells nothing about existence. The account read is a
   * detached copy: changes to it are not saved.
   */
  public Lookup findOrDecoy(UUID clientId, ServiceAccount decoy) {
    return database.read(em -> AccountOrDecoy.read(em, clientId, decoy));
  }

  /**
   * The answer of {@link #findOrDecoy}.
   *
   * @param found whether the client_id names an account
   * @param account that account, or the decoy when {@code found} is false
   */
  public record Lookup(boolean found, ServiceAccount account) {}

  /** Accounts that are not deleted, oldest first; only those of one organization if given. */
  public List<ServiceAccount> list(Optional<String> organizationId) {
    return list(organizationId, Optional.empty());
  }

  /**
   * Accounts that are not deleted, oldest first; only those of one organization, and only those
   * whose current secret was made before {@code secretCreatedBefore}, if given.
   */
  public List<ServiceAccount> list(
      Optional<String> organizationId, Optional<Instant> secretCreatedBefore) {
    String name =
        organizationId.isPresent()
            ? secretCreatedBefore.isPresent()
                ? ServiceAccount.LIVE_IN_ORGANIZATION_SECRET_BEFORE
                : ServiceAccount.LIVE_IN_ORGANIZATION
            : secretCreatedBefore.isPresent()
                ? ServiceAccount.LIVE_SECRET_BEFORE
                : ServiceAccount.LIVE;
    return database.read(
        em -> {
          TypedQuery<ServiceAccount> query =
              em.createNamedQuery(name, ServiceAccount.class)
                  .setParameter("deleted", AccountStatus.DELETED);
          organizationId.ifPresent(org -> query.setParameter("organization", org));
          secretCreatedBefore.ifPresent(before -> query.setParameter("before", before));
          return query.getResultList();
        });
  }

  /** Adds an account that no event of the audit trail is about (tests, a second node's seed). */
  public void add(ServiceAccount account) {
    add(account, Optional.empty());
  }

  /** Adds {@code account} and, in the same transaction, the audit event that records it. */
  public void add(ServiceAccount account, AuditEvent event) {
    add(account, Optional.of(event));
  }

  private void add(ServiceAccount account, Optional<AuditEvent> event) {
    database.write(
        em -> {
          em.persist(account);
          event.ifPresent(e -> e.storeIn(em));
          return account;
        });
  }

  /**
   * Applies {@code change} to the account in one transaction; empty if there is none. The row is
   * locked ({@code select ... for update}) until the transaction ends, so two changes at once run
   * one after the other: neither is lost, and no row mixes the columns of both (two rotations at
   * once could otherwise keep a secret alive that one of them meant to end at once).
   */
  public Optional<ServiceAccount> change(UUID clientId, Consumer<ServiceAccount> change) {
    return changeAudited(clientId, change, account -> Optional.empty());
  }

  /**
   * As {@link #change(UUID, Consumer)}, and stores the audit event that {@code audit} makes of the
   * changed account in the same transaction: the change and its record commit or roll back
   * together.
   */
  public Optional<ServiceAccount> change(
      UUID clientId, Consumer<ServiceAccount> change, Function<ServiceAccount, AuditEvent> audit) {
    return change(clientId, change, audit, em -> {});
  }

  /**
   * As {@link #change(UUID, Consumer, Function)}, and runs {@code alongside} in the same
   * transaction after the change, under the row's lock: what must commit with the change, such as
   * the cut-off of the account's tokens (issue 38).
   */
  public Optional<ServiceAccount> change(
      UUID clientId,
      Consumer<ServiceAccount> change,
      Function<ServiceAccount, AuditEvent> audit,
      Consumer<EntityManager> alongside) {
    return changeAudited(clientId, change, account -> Optional.of(audit.apply(account)), alongside);
  }

  private Optional<ServiceAccount> changeAudited(
      UUID clientId,
      Consumer<ServiceAccount> change,
      Function<ServiceAccount, Optional<AuditEvent>> audit) {
    return changeAudited(clientId, change, audit, em -> {});
  }

  private Optional<ServiceAccount> changeAudited(
      UUID clientId,
      Consumer<ServiceAccount> change,
      Function<ServiceAccount, Optional<AuditEvent>> audit,
      Consumer<EntityManager> alongside) {
    return database.write(
        em -> {
          ServiceAccount account =
              em.find(ServiceAccount.class, clientId.toString(), LockModeType.PESSIMISTIC_WRITE);
          if (account != null) {
            change.accept(account);
            audit.apply(account).ifPresent(e -> e.storeIn(em));
            alongside.accept(em);
          }
          return Optional.ofNullable(account);
        });
  }

  /**
   * Replaces {@code old}, the account's current digest or else its previous one as {@code which}
   * says, by {@code fresh}, in one compare-and-set UPDATE that changes nothing else. Only forward:
   * the update happens only while the pepper check row holds {@code checkValue}, the check value
   * under the pepper {@code fresh} is made under. During a rolling pepper rotation the first node
   * with the new pepper current moves the check row to it; a node not yet restarted, whose current
   * pepper is still the old one, then moves no digest back (the first attacker review of the
   * rotation saw two such nodes turn every successful token request into a write).
   *
   * @return false when the row no longer holds {@code old} (someone else changed it first), or the
   *     check row is under another pepper than {@code fresh}'s
   */
  public boolean redigest(
      UUID clientId,
      SecretDigest.Match which,
      SecretDigest.Digest old,
      SecretDigest.Digest fresh,
      String checkValue) {
    String column = which == SecretDigest.Match.CURRENT ? "secret" : "previous_secret";
    String sql =
        "update service_account set %1$s_digest = ?, %1$s_pepper_id = ?"
            + " where client_id = ? and %1$s_digest = ? and %1$s_pepper_id = ?"
            + " and exists (select 1 from secret_pepper_check c"
            + " where c.id = 1 and c.check_value = ?)";
    return database.write(
        em ->
            em.createNativeQuery(sql.formatted(column))
                    .setParameter(1, fresh.value())
                    .setParameter(2, fresh.pepperId())
                    .setParameter(3, clientId.toString())
                    .setParameter(4, old.value())
                    .setParameter(5, old.pepperId())
                    .setParameter(6, checkValue)
                    .executeUpdate()
                == 1);
  }

  /**
   * How many accounts that are not deleted have each pair of pepper ids: their current digest's,
   * and their previous digest's while it still authenticates at {@code now} (else null). A few
   * rows, however many accounts.
   */
  List<PepperPair> pepperPairs(Instant now) {
    return database.read(
        em -> {
          @SuppressWarnings("unchecked")
          List<Object[]> rows =
              em.createNativeQuery(PEPPER_PAIRS)
                  .setParameter(1, INSTANTS.convertToDatabaseColumn(now))
                  .setParameter(2, AccountStatus.DELETED.name())
                  .getResultList();
          return rows.stream()
              .map(
                  row ->
                      new PepperPair(
                          (String) row[0], (String) row[1], ((Number) row[2]).longValue()))
              .toList();
        });
  }

  /** One answer of {@link #pepperPairs}: {@code previous} is null without a working one. */
  public record PepperPair(String current, String previous, long accounts) {}

  /** Whether the database holds any account at all, tombstones included. */
  boolean isEmpty() {
    return database.read(
        em -> em.createNamedQuery(ServiceAccount.COUNT, Long.class).getSingleResult() == 0);
  }

  /**
   * Adds the generated first administrator, unless another node did so first: the single row of
   * {@code bootstrap} settles the race, so exactly one is ever created.
   *
   * @return whether this call created it
   */
  boolean addFirst(ServiceAccount account, AuditEvent event) {
    try {
      return database.write(
          em -> {
            em.createNativeQuery("insert into bootstrap (id, client_id) values (1, ?)")
                .setParameter(1, account.clientId().toString())
                .executeUpdate();
            em.persist(account);
            event.storeIn(em);
            return true;
          });
    } catch (RuntimeException e) {
      if (isEmpty()) {
        throw e;
      }
      return false;
    }
  }

  /**
   * Undoes {@link #addFirst}: the account and the {@code bootstrap} row that claimed it, in one
   * transaction, so the next start generates the first administrator again.
   */
  void removeFirst(UUID clientId) {
    database.write(
        em -> {
          em.createNativeQuery("delete from bootstrap where client_id = ?")
              .setParameter(1, clientId.toString())
              .executeUpdate();
          ServiceAccount account = find(em, clientId);
          if (account != null) {
            em.remove(account);
          }
          return null;
        });
  }

  private static ServiceAccount find(EntityManager em, UUID clientId) {
    return em.find(ServiceAccount.class, clientId.toString());
  }

  /** How many accounts are in each status, every status present (0 where none). */
  public Map<AccountStatus, Long> countByStatus() {
    Map<AccountStatus, Long> counts = new EnumMap<>(AccountStatus.class);
    for (AccountStatus status : AccountStatus.values()) {
      counts.put(status, 0L);
    }
    database
        .read(
            em ->
                em.createNamedQuery(ServiceAccount.COUNT_BY_STATUS, Object[].class).getResultList())
        .forEach(row -> counts.put((AccountStatus) row[0], ((Number) row[1]).longValue()));
    return counts;
  }

  /** How many active accounts have a current secret created before {@code before}. */
  public long countActiveWithSecretBefore(Instant before) {
    return database.read(
        em ->
            em.createNamedQuery(ServiceAccount.COUNT_ACTIVE_SECRET_BEFORE, Long.class)
                .setParameter("active", AccountStatus.ACTIVE)
                .setParameter("before", before)
                .getSingleResult());
  }
}
