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
import java.util.Objects;
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

  /** RFC 7591 §2 names of the token endpoint's authentication methods. */
  public static final String CLIENT_SECRET_BASIC = "client_secret_basic";

  public static final String CLIENT_SECRET_POST = "client_secret_post";
  public static final String PRIVATE_KEY_JWT = "private_key_jwt";

  /** RFC 8705 §2.2: the client's TLS certificate, one of those its {@code jwks} registers. */
  public static final String SELF_SIGNED_TLS_CLIENT_AUTH = "self_signed_tls_client_auth";

  /**
   * RFC 8705 §2.1: the client's TLS certificate, chained to a CA the operator trusts and carrying
   * the subject the account registers.
   */
  public static final String TLS_CLIENT_AUTH = "tls_client_auth";

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

  /** client_secret_basic or client_secret_post (a secret), or private_key_jwt. */
  @Column(name = "token_endpoint_auth_method")
  private String tokenEndpointAuthMethod;

  /** A private_key_jwt client's public keys, or null when it publishes them itself. */
  private String jwks;

  /** Where a private_key_jwt client publishes its public keys (https), or null. */
  @Column(name = "jwks_uri")
  private String jwksUri;

  /** A tls_client_auth client's subject form (its RFC 8705 §2.1.2 metadata name), or null. */
  @Column(name = "tls_client_auth_subject_kind")
  private String tlsSubjectKind;

  /** A tls_client_auth client's subject, in the form {@link #tlsSubjectKind} names, or null. */
  @Column(name = "tls_client_auth_subject")
  private String tlsSubject;

  /**
   * RFC 8705 §3.4: a secret or private_key_jwt client whose tokens are bound to its connection's
   * certificate; a certificate client's always are, whatever this says.
   */
  @Column(name = "certificate_bound_tokens")
  private boolean certificateBoundTokens;

  /**
   * RFC 9449 §5.2 ({@code dpop_bound_access_tokens}): a client whose every token request must carry
   * a DPoP proof, so that its tokens are all bound to a key it holds.
   */
  @Column(name = "dpop_bound_tokens")
  private boolean dpopBoundTokens;

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
    if (secretDigest != null) {
      this.tokenEndpointAuthMethod = CLIENT_SECRET_BASIC;
      this.secretDigest = secretDigest.value();
      this.secretPepperId = secretDigest.pepperId();
      this.secretCreatedAt = now;
    }
    this.createdAt = now;
    this.updatedAt = now;
  }

  private static List<String> distinct(List<String> words) {
    return words.stream().distinct().toList();
  }

  /** An account as stored, read by a query of its own ({@link AccountOrDecoy}). */
  static ServiceAccount stored(
      String clientId,
      AccountProfile profile,
      AccountStatus status,
      Secrets secrets,
      Credential credential,
      Instant createdAt,
      Instant updatedAt) {
    ServiceAccount account = new ServiceAccount();
    account.tokenEndpointAuthMethod = credential.method();
    account.jwks = credential.jwks();
    account.jwksUri = credential.jwksUri();
    credential
        .subject()
        .ifPresent(
            subject -> {
              account.tlsSubjectKind = subject.kind().metadataName();
              account.tlsSubject = subject.value();
            });
    account.certificateBoundTokens = credential.boundTokens();
    account.dpopBoundTokens = credential.dpopBound();
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
    return new ServiceAccount(clientId, profile, Objects.requireNonNull(secretDigest), now);
  }

  /**
   * As {@link #create(UUID, AccountProfile, SecretDigest.Digest, Instant)}, for a secret account
   * registered with {@code client_secret_post}: it is stored as said, and takes both methods.
   */
  public static ServiceAccount create(
      UUID clientId,
      AccountProfile profile,
      SecretDigest.Digest secretDigest,
      String method,
      Instant now) {
    if (!method.equals(CLIENT_SECRET_BASIC) && !method.equals(CLIENT_SECRET_POST)) {
      throw new IllegalArgumentException("not a secret method: " + method);
    }
    ServiceAccount account = create(clientId, profile, secretDigest, now);
    account.tokenEndpointAuthMethod = method;
    return account;
  }

  /**
   * A new active {@code private_key_jwt} account, with no secret at all: it proves itself with
   * assertions signed by the keys {@code keys} names.
   */
  public static ServiceAccount createWithKeys(
      UUID clientId, AccountProfile profile, Keys keys, Instant now) {
    return createWithKeys(clientId, profile, PRIVATE_KEY_JWT, keys, now);
  }

  /**
   * A new active account of {@code method}, {@code private_key_jwt} or {@code
   * self_signed_tls_client_auth} (whose keys are a set carrying their certificates, never a URL),
   * with no secret at all.
   */
  public static ServiceAccount createWithKeys(
      UUID clientId, AccountProfile profile, String method, Keys keys, Instant now) {
    if (!method.equals(PRIVATE_KEY_JWT) && !method.equals(SELF_SIGNED_TLS_CLIENT_AUTH)) {
      throw new IllegalArgumentException("not a key method: " + method);
    }
    if (method.equals(SELF_SIGNED_TLS_CLIENT_AUTH) && keys.jwks() == null) {
      throw new IllegalArgumentException("a self_signed_tls_client_auth account needs a jwks");
    }
    ServiceAccount account = new ServiceAccount(clientId, profile, null, now);
    account.tokenEndpointAuthMethod = method;
    account.jwks = keys.jwks();
    account.jwksUri = keys.jwksUri();
    return account;
  }

  /**
   * A new active {@code tls_client_auth} account (RFC 8705 §2.1), with no secret and no keys: its
   * certificate must chain to a CA the operator trusts and carry {@code subject}.
   */
  public static ServiceAccount createWithSubject(
      UUID clientId, AccountProfile profile, CertificateSubject subject, Instant now) {
    ServiceAccount account = new ServiceAccount(clientId, profile, null, now);
    account.tokenEndpointAuthMethod = TLS_CLIENT_AUTH;
    account.tlsSubjectKind = subject.kind().metadataName();
    account.tlsSubject = subject.value();
    return account;
  }

  /**
   * RFC 8705 §3.4: this secret or private_key_jwt account's tokens are bound to the certificate its
   * connection presents, and it gets none without one. A certificate account's always are.
   */
  public ServiceAccount bindingTokens() {
    certificateBoundTokens = true;
    return this;
  }

  /**
   * RFC 9449 §5.2: every token request of this account must carry a DPoP proof, and every token it
   * gets is bound to the proof's key.
   */
  public ServiceAccount requiringDpop() {
    dpopBoundTokens = true;
    return this;
  }

  /**
   * Where a {@code private_key_jwt} account's public keys are: a set of its own ({@code jwks}, the
   * JSON {@link ClientJwks#json()} keeps), or the https URL it publishes them at; exactly one.
   */
  public record Keys(String jwks, String jwksUri) {
    public Keys {
      if ((jwks == null) == (jwksUri == null)) {
        throw new IllegalArgumentException("a key set or its URL, exactly one");
      }
    }

    public static Keys of(ClientJwks jwks) {
      return new Keys(jwks.json(), null);
    }

    public static Keys at(java.net.URI jwksUri) {
      return new Keys(null, jwksUri.toString());
    }
  }

  /**
   * How an account read by the token path proves itself: its method; its key set or key set URL
   * when that is {@code private_key_jwt} or {@code self_signed_tls_client_auth} (else both null);
   * its certificate's subject when that is {@code tls_client_auth}; and whether its tokens are
   * bound to its connection's certificate though it authenticates otherwise; whether every token
   * request must carry a DPoP proof ({@code dpopBound}).
   */
  public record Credential(
      String method,
      String jwks,
      String jwksUri,
      Optional<CertificateSubject> subject,
      boolean boundTokens,
      boolean dpopBound) {
    public Credential(String method, String jwks, String jwksUri) {
      this(method, jwks, jwksUri, Optional.empty(), false, false);
    }
  }

  /** Replaces a {@code private_key_jwt} account's keys; the old ones fail at once. */
  public void replaceKeys(Keys keys, Instant now) {
    requireNotDeleted("given new keys");
    if (!usesKeys()) {
      throw new IllegalAccountStateException(
          "service account "
              + clientId
              + " authenticates with "
              + tokenEndpointAuthMethod
              + " and has no keys");
    }
    if (usesCertificate() && keys.jwks() == null) {
      throw new IllegalArgumentException("a self_signed_tls_client_auth account needs a jwks");
    }
    jwks = keys.jwks();
    jwksUri = keys.jwksUri();
    updatedAt = now;
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
   * A new current secret; the one it replaces keeps authenticating for {@code overlap}, or fails at
   * once when that is zero. An account holds at most two secrets, so a rotation during an overlap
   * ends the older overlap at once: the previous secret is always the one just replaced.
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
    if (!hasSecret()) {
      throw new IllegalAccountStateException(
          "service account "
              + clientId
              + " authenticates with "
              + tokenEndpointAuthMethod
              + " and has no secret");
    }
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

  /** The method named at registration (RFC 7591 §2); a secret account takes both secret ones. */
  public String tokenEndpointAuthMethod() {
    return tokenEndpointAuthMethod;
  }

  /** Whether the account proves itself with a client secret (either secret method). */
  public boolean hasSecret() {
    return CLIENT_SECRET_BASIC.equals(tokenEndpointAuthMethod)
        || CLIENT_SECRET_POST.equals(tokenEndpointAuthMethod);
  }

  /**
   * Whether the account registers keys: it proves itself with signed assertions ({@code
   * private_key_jwt}) or with one of its keys' certificates ({@code self_signed_tls_client_auth}).
   */
  public boolean usesKeys() {
    return signsAssertions() || SELF_SIGNED_TLS_CLIENT_AUTH.equals(tokenEndpointAuthMethod);
  }

  /** Whether the account proves itself with assertions signed by its keys (RFC 7523). */
  public boolean signsAssertions() {
    return PRIVATE_KEY_JWT.equals(tokenEndpointAuthMethod);
  }

  /**
   * Whether the account proves itself with a TLS client certificate (RFC 8705): one it registered
   * ({@code self_signed_tls_client_auth}) or one of a trusted CA for its subject ({@code
   * tls_client_auth}).
   */
  public boolean usesCertificate() {
    return SELF_SIGNED_TLS_CLIENT_AUTH.equals(tokenEndpointAuthMethod)
        || TLS_CLIENT_AUTH.equals(tokenEndpointAuthMethod);
  }

  /** The subject a {@code tls_client_auth} account's certificate must carry; else empty. */
  public Optional<CertificateSubject> certificateSubject() {
    return tlsSubjectKind == null
        ? Optional.empty()
        : Optional.of(
            new CertificateSubject(
                CertificateSubject.Kind.named(tlsSubjectKind).orElseThrow(), tlsSubject));
  }

  /**
   * Whether its tokens are bound to its connection's certificate (RFC 8705 §3): always for a
   * certificate account, by registration for the others ({@code
   * tls_client_certificate_bound_access_tokens}).
   */
  public boolean bindsTokens() {
    return certificateBoundTokens || usesCertificate();
  }

  /**
   * Whether every token request must carry a DPoP proof (RFC 9449 §5.2, {@code
   * dpop_bound_access_tokens}); any client may send one without it.
   */
  public boolean requiresDpop() {
    return dpopBoundTokens;
  }

  /** Its own key set, as stored, when it is a {@code private_key_jwt} account that has one. */
  public Optional<String> jwks() {
    return Optional.ofNullable(jwks);
  }

  /** The URL of its key set, when it is a {@code private_key_jwt} account that publishes one. */
  public Optional<String> jwksUri() {
    return Optional.ofNullable(jwksUri);
  }

  /** How it proves itself, as the token path reads it. */
  public Credential credential() {
    return new Credential(
        tokenEndpointAuthMethod,
        jwks,
        jwksUri,
        certificateSubject(),
        certificateBoundTokens,
        dpopBoundTokens);
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

  /**
   * When the current secret was made: at creation, then at each rotation; null for an account that
   * has no secret.
   */
  public Instant secretCreatedAt() {
    return secretCreatedAt;
  }

  /** When the previous secret stops authenticating; empty when it already has, or there is none. */
  public Optional<Instant> previousSecretExpiresAt(Instant now) {
    return Optional.ofNullable(previousSecretExpiresAt).filter(expiry -> expiry.isAfter(now));
  }

  /**
   * An account's secrets as stored: the current digest and when it was made, and the previous
   * digest with the moment it stops authenticating (both null when there is none). Each digest
   * names the pepper it is under.
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
