package dev.platform.identity.account;

import dev.platform.identity.db.WordList;
import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.NamedNativeQuery;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A service account (SPEC 2.1, 3.1). State changes are methods; the shared cache is off so a change
 * made on one node is seen by the next request on every node (DESIGN decision 3).
 */
@Entity
@Table(name = "service_account")
@Cacheable(false)
@NamedQuery(
    name = ServiceAccount.LIVE,
    query = "select a from ServiceAccount a where a.status <> :deleted order by a.createdAt")
@NamedQuery(
    name = ServiceAccount.LIVE_IN_ORGANIZATION,
    query =
        "select a from ServiceAccount a where a.status <> :deleted"
            + " and a.organizationId = :organization order by a.createdAt")
@NamedQuery(
    name = ServiceAccount.LIVE_SECRET_BEFORE,
    query =
        "select a from ServiceAccount a where a.status <> :deleted"
            + " and a.secretCreatedAt < :before order by a.createdAt")
@NamedQuery(
    name = ServiceAccount.LIVE_IN_ORGANIZATION_SECRET_BEFORE,
    query =
        "select a from ServiceAccount a where a.status <> :deleted"
            + " and a.organizationId = :organization and a.secretCreatedAt < :before"
            + " order by a.createdAt")
@NamedQuery(name = ServiceAccount.COUNT, query = "select count(a) from ServiceAccount a")
@NamedQuery(
    name = ServiceAccount.COUNT_BY_STATUS,
    query = "select a.status, count(a) from ServiceAccount a group by a.status")
@NamedQuery(
    name = ServiceAccount.COUNT_ACTIVE_SECRET_BEFORE,
    query =
        "select count(a) from ServiceAccount a where a.status = :active"
            + " and a.secretCreatedAt < :before")
@NamedNativeQuery(name = AccountOrDecoy.QUERY, query = AccountOrDecoy.SQL)
public class ServiceAccount {
  static final String LIVE = "ServiceAccount.live";
  static final String LIVE_IN_ORGANIZATION = "ServiceAccount.liveInOrganization";
  static final String LIVE_SECRET_BEFORE = "ServiceAccount.liveSecretBefore";
  static final String LIVE_IN_ORGANIZATION_SECRET_BEFORE =
      "ServiceAccount.liveInOrganizationSecretBefore";
  static final String COUNT = "ServiceAccount.count";
  static final String COUNT_BY_STATUS = "ServiceAccount.countByStatus";
  static final String COUNT_ACTIVE_SECRET_BEFORE = "ServiceAccount.countActiveSecretBefore";

  @Id
  @Column(name = "client_id")
  private String clientId;

  private String name;

  @Column(name = "organization_id")
  private String organizationId;

  @Column(name = "accessible_orgs")
  @Convert(converter = WordList.class)
  private List<String> accessibleOrgs;

  @Convert(converter = WordList.class)
  private List<String> scopes;

  @Column(name = "service_name")
  private String serviceName;

  @Enumerated(EnumType.STRING)
  private AccountStatus status;

  @Column(name = "secret_digest")
  private String secretDigest;

  @Column(name = "secret_pepper_id")
  private String secretPepperId;

  @Column(name = "secret_created_at")
  private Instant secretCreatedAt;

  @Column(name = "previous_secret_digest")
  private String previousSecretDigest;

  @Column(name = "previous_secret_pepper_id")
  private String previousSecretPepperId;

  @Column(name = "previous_secret_expires_at")
  private Instant previousSecretExpiresAt;

  @Column(name = "created_at")
  private Instant createdAt;

  @Column(name = "updated_at")
  private Instant updatedAt;

  protected ServiceAccount() {}

  private ServiceAccount(
      UUID clientId, AccountProfile profile, SecretDigest.Digest secretDigest, Instant now) {
    this.clientId = clientId.toString();
    this.name = profile.name();
    this.organizationId = profile.organizationId();
    List<String> orgs = new ArrayList<>(List.of(profile.organizationId()));
    orgs.addAll(profile.accessibleOrgs());
    this.accessibleOrgs = distinct(orgs);
    this.scopes = distinct(profile.scopes());
    this.serviceName = profile.serviceName();
    this.status = AccountStatus.ACTIVE;
    this.secretDigest = secretDigest.value();
    this.secretPepperId = secretDigest.pepperId();
    this.secretCreatedAt = now;
    this.createdAt = now;
    this.updatedAt = now;
  }

  private static List<String> distinct(List<String> words) {
    return words.stream().distinct().toList();
  }

  /** An account as stored, read by a query of its own (issue 26: {@link AccountOrDecoy}). */
  static ServiceAccount stored(
      String clientId,
      AccountProfile profile,
      AccountStatus status,
      Secrets secrets,
      Instant createdAt,
      Instant updatedAt) {
    ServiceAccount account = new ServiceAccount();
    account.clientId = clientId;
    account.name = profile.name();
    account.organizationId = profile.organizationId();
    account.accessibleOrgs = profile.accessibleOrgs();
    account.scopes = profile.scopes();
    account.serviceName = profile.serviceName();
    account.status = status;
    account.secretDigest = secrets.current().value();
    account.secretPepperId = secrets.current().pepperId();
    account.secretCreatedAt = secrets.currentCreatedAt();
    if (secrets.previous() != null) {
      account.previousSecretDigest = secrets.previous().value();
      account.previousSecretPepperId = secrets.previous().pepperId();
    }
    account.previousSecretExpiresAt = secrets.previousExpiresAt();
    account.createdAt = createdAt;
    account.updatedAt = updatedAt;
    return account;
  }

  /** A new active account; its primary organization is always the first accessible one. */
  public static ServiceAccount create(
      UUID clientId, AccountProfile profile, SecretDigest.Digest secretDigest, Instant now) {
    return new ServiceAccount(clientId, profile, secretDigest, now);
  }

  /** SPEC 3.1: an active account stops getting tokens. Deactivating twice changes nothing. */
  public void deactivate(Instant now) {
    requireNotDeleted("deactivated");
    move(AccountStatus.DEACTIVATED, now);
  }

  /** SPEC 3.1: a deactivated account gets tokens again. */
  public void reactivate(Instant now) {
    requireNotDeleted("reactivated");
    move(AccountStatus.ACTIVE, now);
  }

  /** Leaves a tombstone: the client_id is never reused and its token requests say "revoked". */
  public void delete(Instant now) {
    requireNotDeleted("deleted");
    move(AccountStatus.DELETED, now);
  }

  /** The old secret fails from the next request on (SPEC 3.1). */
  public void replaceSecret(SecretDigest.Digest newDigest, Instant now) {
    replaceSecret(newDigest, Duration.ZERO, now);
  }

  /**
   * A new current secret; the one it replaces keeps authenticating for {@code overlap} (issue 19),
   * or fails at once when that is zero. An account holds at most two secrets, so a rotation during
   * an overlap ends the older overlap at once: the previous secret is always the one just replaced.
   */
  public void replaceSecret(SecretDigest.Digest newDigest, Duration overlap, Instant now) {
    replaceSecret(newDigest, overlap, Optional.empty(), now);
  }

  /**
   * As {@link #replaceSecret(SecretDigest.Digest, Duration, Instant)}, but the replaced secret
   * never outlives {@code maxAge} from its own creation: an overlap cannot revive a secret already
   * refused as too old, nor stretch one past its age limit.
   */
  public void replaceSecret(
      SecretDigest.Digest newDigest, Duration overlap, Optional<Duration> maxAge, Instant now) {
    requireNotDeleted("given a new secret");
    Instant until = now.plus(overlap);
    if (maxAge.isPresent() && until.isAfter(secretCreatedAt.plus(maxAge.get()))) {
      until = secretCreatedAt.plus(maxAge.get());
    }
    boolean keepsPrevious = until.isAfter(now);
    previousSecretDigest = keepsPrevious ? secretDigest : null;
    previousSecretPepperId = keepsPrevious ? secretPepperId : null;
    // Microseconds, as both databases store them: the rotation's answer shows what later reads do.
    previousSecretExpiresAt = keepsPrevious ? until.truncatedTo(ChronoUnit.MICROS) : null;
    secretDigest = newDigest.value();
    secretPepperId = newDigest.pepperId();
    secretCreatedAt = now;
    updatedAt = now;
  }

  private void requireNotDeleted(String change) {
    if (status == AccountStatus.DELETED) {
      throw new IllegalAccountStateException(
          "service account " + clientId + " is deleted and cannot be " + change);
    }
  }

  private void move(AccountStatus next, Instant now) {
    if (status != next) {
      status = next;
      updatedAt = now;
    }
  }

  public UUID clientId() {
    return UUID.fromString(clientId);
  }

  public String name() {
    return name;
  }

  public String organizationId() {
    return organizationId;
  }

  public List<String> accessibleOrgs() {
    return List.copyOf(accessibleOrgs);
  }

  public List<String> scopes() {
    return List.copyOf(scopes);
  }

  public String serviceName() {
    return serviceName;
  }

  /** What the account is and may do, as it was created. */
  public AccountProfile profile() {
    return new AccountProfile(name, organizationId, accessibleOrgs(), scopes(), serviceName);
  }

  public AccountStatus status() {
    return status;
  }

  public boolean isActive() {
    return status == AccountStatus.ACTIVE;
  }

  /** A tombstone: the administration API treats it as not there. */
  public boolean isDeleted() {
    return status == AccountStatus.DELETED;
  }

  /** The current secret's digest and the id of the pepper it is under. */
  public SecretDigest.Digest secretDigest() {
    return new SecretDigest.Digest(secretDigest, secretPepperId);
  }

  /** The stored digests and their times, as they are, an expired previous one included. */
  public Secrets secrets() {
    return new Secrets(
        secretDigest(),
        secretCreatedAt,
        previousSecretDigest == null
            ? null
            : new SecretDigest.Digest(previousSecretDigest, previousSecretPepperId),
        previousSecretExpiresAt);
  }

  /** When the current secret was made: at creation, then at each rotation. */
  public Instant secretCreatedAt() {
    return secretCreatedAt;
  }

  /** When the previous secret stops authenticating; empty when it already has, or there is none. */
  public Optional<Instant> previousSecretExpiresAt(Instant now) {
    return Optional.ofNullable(previousSecretExpiresAt).filter(expiry -> expiry.isAfter(now));
  }

  /**
   * An account's secrets as stored (issue 19): the current digest and when it was made, and the
   * previous digest with the moment it stops authenticating (both null when there is none). Each
   * digest names the pepper it is under.
   */
  public record Secrets(
      SecretDigest.Digest current,
      Instant currentCreatedAt,
      SecretDigest.Digest previous,
      Instant previousExpiresAt) {

    /** The previous digest while it still authenticates at {@code now}. */
    public Optional<SecretDigest.Digest> previousAt(Instant now) {
      return previousExpiresAt != null && previousExpiresAt.isAfter(now)
          ? Optional.of(previous)
          : Optional.empty();
    }
  }

  public Instant createdAt() {
    return createdAt;
  }

  public Instant updatedAt() {
    return updatedAt;
  }
}
