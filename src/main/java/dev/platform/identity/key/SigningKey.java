package dev.platform.identity.key;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An RSA signing key and its schedule (DESIGN decision 4): listed from {@code publishedAt}, signing
 * from {@code activeFrom} until a later key starts, listed until {@code expiresAt}. The private key
 * is stored only encrypted (DESIGN decision 5), or not at all when it lives in a PKCS#11 token .
 * Never in the shared cache: the key ring is the cache.
 */
@Entity
@Table(name = "signing_key")
@Cacheable(false)
@NamedQuery(name = SigningKey.ALL, query = "select k from SigningKey k order by k.createdAt, k.kid")
@NamedQuery(
    name = SigningKey.IN_SLOT,
    query = "select count(k) from SigningKey k where k.scheduleSlot = :slot and k.kid <> :kid")
@NamedQuery(
    name = SigningKey.NOT_SEALED_UNDER,
    query = "select count(k) from SigningKey k where k.kekId is null or k.kekId <> :kekId")
@NamedQuery(
    name = SigningKey.RESEAL,
    query =
        "update SigningKey k set k.privateKey = :privateKey, k.privateKeyNonce = :nonce,"
            + " k.kekId = :kekId, k.rowMac = :rowMac"
            + " where k.kid = :kid and k.kekId = :oldKekId and k.rowMac = :oldRowMac")
public class SigningKey {
  static final String ALL = "SigningKey.all";
  static final String IN_SLOT = "SigningKey.inSlot";
  static final String NOT_SEALED_UNDER = "SigningKey.notSealedUnder";
  static final String RESEAL = "SigningKey.reseal";

  /** The slot of the very first key: two nodes starting on an empty database create one key. */
  static final String FIRST_SLOT = "first";

  /** Among keys that have started, the one that started last signs. */
  private static final Comparator<SigningKey> START_ORDER =
      Comparator.comparing((SigningKey key) -> key.activeFrom)
          .thenComparing(key -> key.createdAt)
          .thenComparing(key -> key.kid);

  @Id private String kid;

  @Column(name = "public_key")
  private String publicKey;

  @Column(name = "private_key")
  private String privateKey;

  @Column(name = "private_key_nonce")
  private String privateKeyNonce;

  @Column(name = "schedule_slot")
  private String scheduleSlot;

  @Column(name = "published_at")
  private Instant publishedAt;

  @Column(name = "active_from")
  private Instant activeFrom;

  @Column(name = "expires_at")
  private Instant expiresAt;

  @Column(name = "revoked_at")
  private Instant revokedAt;

  @Column(name = "created_at")
  private Instant createdAt;

  /**
   * {@link KeyRowMac} of the other columns; null in a row no node holding the key has vouched for.
   */
  @Column(name = "row_mac")
  private String rowMac;

  /**
   * {@link KeyEncryptionKey#id()} of the key-encryption key that sealed the private key (V10); null
   * in a row migration 11 found no configured key to vouch for, which is never served.
   */
  @Column(name = "kek_id")
  private String kekId;

  /** {@link PrivateKeyHome#column()}: where the private half is (V19). */
  @Column(name = "private_key_home")
  private String privateKeyHome;

  protected SigningKey() {}

  private SigningKey(KeyMaterial material, String scheduleSlot, Instant now, Instant activeFrom) {
    this.kid = material.kid();
    this.publicKey = Base64.getEncoder().encodeToString(material.publicKey());
    this.privateKeyHome = material.home().column();
    if (material.home() == PrivateKeyHome.DATABASE) {
      this.privateKey = Base64.getEncoder().encodeToString(material.privateKey().ciphertext());
      this.privateKeyNonce = Base64.getEncoder().encodeToString(material.privateKey().nonce());
    }
    this.kekId = material.kekId();
    this.scheduleSlot = scheduleSlot;
    this.publishedAt = now;
    this.activeFrom = activeFrom;
    this.createdAt = now;
  }

  /** A key published {@code now} that signs from {@code activeFrom}, holding {@code slot}. */
  static SigningKey create(KeyMaterial material, String slot, Instant now, Instant activeFrom) {
    return new SigningKey(material, slot, now, activeFrom);
  }

  /** The key among {@code keys} that signs at {@code time}, if any. */
  static Optional<SigningKey> currentAt(Collection<SigningKey> keys, Instant time) {
    return keys.stream().filter(key -> key.hasStartedAt(time)).max(START_ORDER);
  }

  /** The slot for a first key when the table is empty, else for a successor of the newest row. */
  static String slotAfterNewest(List<SigningKey> keys) {
    return keys.stream()
        .max(Comparator.comparing((SigningKey key) -> key.createdAt).thenComparing(key -> key.kid))
        .map(SigningKey::successorSlot)
        .orElse(FIRST_SLOT);
  }

  /** The slot of the key that takes over from this one. */
  String successorSlot() {
    return "after:" + kid;
  }

  /** Whether the key is in the published list (and the single lookup) at {@code time}. */
  boolean isListedAt(Instant time) {
    return revokedAt == null
        && !publishedAt.isAfter(time)
        && (expiresAt == null || time.isBefore(expiresAt));
  }

  /**
   * Whether the key left the list, revoked or expired, before {@code time}. A key not yet published
   * has not left it: on a node whose clock is behind, a key just made by another is such a key.
   */
  boolean leftListBefore(Instant time) {
    Instant left = revokedAt != null ? revokedAt : expiresAt;
    return left != null && left.isBefore(time);
  }

  /** Whether the key is listed and has reached its {@code activeFrom} at {@code time}. */
  boolean hasStartedAt(Instant time) {
    return isListedAt(time) && !activeFrom.isAfter(time);
  }

  /** Whether the key is neither revoked nor expired and signs only after {@code time}. */
  boolean isPendingAt(Instant time) {
    return revokedAt == null
        && activeFrom.isAfter(time)
        && (expiresAt == null || time.isBefore(expiresAt));
  }

  /**
   * Whether {@code other} is this row unchanged: the same key with the same schedule, sealed under
   * the same key-encryption key (the key material never changes; a re-encryption changes how it is
   * sealed, and the MAC).
   */
  boolean isSameRow(SigningKey other) {
    return kid.equals(other.kid)
        && Objects.equals(kekId, other.kekId)
        && Objects.equals(rowMac, other.rowMac)
        && publishedAt.equals(other.publishedAt)
        && activeFrom.equals(other.activeFrom)
        && Objects.equals(expiresAt, other.expiresAt)
        && Objects.equals(revokedAt, other.revokedAt);
  }

  /** Compromise: the key leaves the list at once and gives up its schedule slot. */
  void revoke(Instant now) {
    if (revokedAt == null) {
      revokedAt = now;
      scheduleSlot = null;
    }
  }

  /** A key that never signed is superseded by an operator's rotation: it leaves the list now. */
  void retire(Instant now) {
    expiresAt = now;
    scheduleSlot = null;
  }

  /** The key stops being listed at {@code time}: its last signature plus the retention. */
  void expireAt(Instant time) {
    expiresAt = time;
  }

  /**
   * Computes the row's MAC anew: after creation and after every change of a trusted row. The MAC
   * key is derived from the key-encryption key {@link #kekId()} names, so that choice binds it.
   */
  void updateMac(KeyRowMac mac) {
    rowMac = mac.of(columns());
  }

  /** Whether the row is as a node holding the key-encryption key last wrote it. */
  boolean macHolds(KeyRowMac mac) {
    return mac.verifies(columns(), rowMac);
  }

  /** The row's MAC as stored; the compare-and-set of a re-encryption checks it. */
  String rowMac() {
    return rowMac;
  }

  /**
   * The columns the MAC covers, with the private key {@code sealed} in place of the stored one; a
   * key in a token has none, and {@code sealed} is null.
   */
  KeyRow columnsSealedAs(SealedKey sealed) {
    if (sealed == null) {
      return columns();
    }
    return columns(
        Base64.getEncoder().encodeToString(sealed.ciphertext()),
        Base64.getEncoder().encodeToString(sealed.nonce()));
  }

  private KeyRow columns() {
    return columns(privateKey, privateKeyNonce);
  }

  private KeyRow columns(String privateKey, String privateKeyNonce) {
    return new KeyRow(
        kid,
        publicKey,
        privateKey,
        privateKeyNonce,
        publishedAt,
        activeFrom,
        expiresAt,
        revokedAt,
        createdAt,
        home());
  }

  /**
   * The public key, decoded from its stored X.509 form once per loaded row: {@code BearerVerifier}
   * asks for it on every administration, console and metrics request, cache hit or not.
   */
  RSAPublicKey rsaPublicKey() {
    RSAPublicKey decoded = rsaPublicKey;
    if (decoded == null) {
      try {
        decoded =
            (RSAPublicKey)
                KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(publicKey)));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("signing key " + kid + " has an unreadable public key", e);
      }
      rsaPublicKey = decoded;
    }
    return decoded;
  }

  /** {@link #rsaPublicKey()}, once decoded; the stored text never changes. */
  @Transient private volatile RSAPublicKey rsaPublicKey;

  /** Where the private half lives. */
  PrivateKeyHome home() {
    return PrivateKeyHome.of(privateKeyHome);
  }

  /** The private key as stored: encrypted; only for a key whose {@link #home()} is the database. */
  SealedKey sealedPrivateKey() {
    return new SealedKey(
        Base64.getDecoder().decode(privateKeyNonce), Base64.getDecoder().decode(privateKey), kekId);
  }

  /** The id of the key-encryption key that sealed the private key; null if none vouched for it. */
  String kekId() {
    return kekId;
  }

  String scheduleSlot() {
    return scheduleSlot;
  }

  public String kid() {
    return kid;
  }

  public Instant publishedAt() {
    return publishedAt;
  }

  public Instant activeFrom() {
    return activeFrom;
  }

  /** When the key leaves the list; empty until its successor is scheduled. */
  public Optional<Instant> expiresAt() {
    return Optional.ofNullable(expiresAt);
  }

  public Optional<Instant> revokedAt() {
    return Optional.ofNullable(revokedAt);
  }

  public Instant createdAt() {
    return createdAt;
  }
}
