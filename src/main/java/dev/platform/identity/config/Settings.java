package dev.platform.identity.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import javax.crypto.SecretKey;

/**
 * Every setting of the service, typed and checked. Built by {@link JndiSettings#read}.
 *
 * @param issuer the {@code iss} of every token and the base of the discovery document
 * @param tokenLifetime lifetime of an access token (SPEC 8: 24 hours)
 * @param keyEncryptionKey AES-256 key that encrypts the private signing keys at rest
 * @param secretPepper HMAC-SHA-256 key under which client secrets are digested
 * @param bootstrap the configured bootstrap administrator, if any (ADMIN.md "Bootstrap")
 * @param bootstrapOrganization organization of the bootstrap administrator
 * @param signingKeySize RSA modulus length in bits
 * @param keySchedule the signing-key rotation schedule (DESIGN decision 4)
 * @param rateLimitStore where rate-limit buckets live
 * @param tokenRateLimit successful token requests per minute per client (SPEC 8: 60)
 * @param trustedProxies addresses of reverse proxies whose {@code X-Forwarded-For} is believed
 * @param rsaEngine which JCA provider makes the RSA signatures
 * @param adminTokenLifetime lifetime of a token granted an {@code identity:} scope: at most {@code
 *     tokenLifetime}, shorter where a stolen administrator's token should be worth less
 * @param managerGrantableScopes scopes a caller without {@code identity:admin} may grant beyond its
 *     own (wildcards allowed); empty: only its own
 * @param maxPublishedKeys the most signing keys the published list may hold; operators' rotations
 *     that would pass it are refused, keeping one place for the schedule's next key
 * @param bootstrapSecretFile where a generated bootstrap administrator's credentials are written
 *     (owner-only, once); empty: to the log
 * @param secretRotation how long a replaced client secret may keep working, and how old a current
 *     one may grow (issue 19)
 * @param previousKeyEncryptionKeys earlier key-encryption keys, for opening what they sealed until
 *     it is sealed anew under {@code keyEncryptionKey} (issue 19); never used to seal
 * @param previousSecretPeppers earlier peppers, for checking secrets digested under them until a
 *     successful authentication digests them anew under {@code secretPepper} (issue 19)
 * @param metricsAccess who may read {@code /metrics} (issue 20)
 * @param auditRetention how long the audit trail in the database keeps an event (issue 20 §3)
 * @param consoleIdleTimeout how long a console session lasts without a request (issue 21)
 * @param allowPrivateJwksUris whether a private_key_jwt client's {@code jwks_uri} may name a
 *     loopback, link-local or private address (issue 22); off, the service cannot be aimed at the
 *     internal network
 * @param keyStore where new signing keys are created (issue 24)
 * @param pkcs11 the HSM that holds signing keys, when one is configured (issue 24); required when
 *     {@code keyStore} is {@link KeyStore#PKCS11}, and kept open under {@link KeyStore#DATABASE} so
 *     that keys already in it keep signing
 */
public record Settings(
    URI issuer,
    Duration tokenLifetime,
    SecretKey keyEncryptionKey,
    SecretKey secretPepper,
    Optional<BootstrapAccount> bootstrap,
    String bootstrapOrganization,
    int signingKeySize,
    KeySchedule keySchedule,
    RateLimitStore rateLimitStore,
    int tokenRateLimit,
    List<String> trustedProxies,
    RsaEngine rsaEngine,
    Duration adminTokenLifetime,
    List<String> managerGrantableScopes,
    int maxPublishedKeys,
    Optional<Path> bootstrapSecretFile,
    SecretRotation secretRotation,
    List<SecretKey> previousKeyEncryptionKeys,
    List<SecretKey> previousSecretPeppers,
    MetricsAccess metricsAccess,
    Duration auditRetention,
    Duration consoleIdleTimeout,
    boolean allowPrivateJwksUris,
    KeyStore keyStore,
    Optional<Pkcs11> pkcs11) {
  /** How long the audit trail keeps an event when {@code identity/auditRetention} is unset. */
  public static final Duration DEFAULT_AUDIT_RETENTION = Duration.ofDays(400);

  /** How long a console session lasts without a request when the setting is unset (issue 21). */
  public static final Duration DEFAULT_CONSOLE_IDLE_TIMEOUT = Duration.ofMinutes(15);

  /** A bootstrap administrator whose credentials the operator chose. */
  public record BootstrapAccount(UUID clientId, String clientSecret) {
    @Override
    public String toString() {
      return "BootstrapAccount[clientId=" + clientId + ", clientSecret=(hidden)]";
    }
  }

  /**
   * The limits of client secrets (issue 19).
   *
   * @param maxOverlap the longest a rotation may let the replaced secret keep working
   * @param maxAge how old a current secret may be before it is refused; empty: no limit
   */
  public record SecretRotation(Duration maxOverlap, Optional<Duration> maxAge) {
    /** No overlap allowed and no age limit: what a deployment without the settings had. */
    public static final SecretRotation NONE = new SecretRotation(Duration.ZERO, Optional.empty());
  }

  /**
   * When signing keys are created, start signing and leave the published list.
   *
   * @param rotationInterval how long a key signs before the next one takes over
   * @param prePublication how long a new key is listed before it signs (at least the JWKS cache
   *     time)
   * @param retention how long a key stays listed after its last signature (at least the token
   *     lifetime plus clock skew)
   * @param refresh how often each node recomputes its key ring from the database
   */
  public record KeySchedule(
      Duration rotationInterval, Duration prePublication, Duration retention, Duration refresh) {}

  /** Where new signing keys are created (issue 24). */
  public enum KeyStore {
    /** RSA keys made in the JVM, their private halves sealed under the key-encryption key. */
    DATABASE,
    /** RSA keys made inside a PKCS#11 token, whose private halves never leave it. */
    PKCS11
  }

  /**
   * A PKCS#11 token (issue 24): the module, the token, and the user PIN.
   *
   * @param library the module's absolute path
   * @param slot the token's slot id, or empty when {@code tokenLabel} names it
   * @param tokenLabel the token's label, or empty when {@code slot} names it
   * @param pin the user PIN
   */
  public record Pkcs11(Path library, OptionalLong slot, Optional<String> tokenLabel, String pin) {
    @Override
    public String toString() {
      return "Pkcs11[library="
          + library
          + ", slot="
          + slot
          + ", tokenLabel="
          + tokenLabel
          + ", pin=(hidden)]";
    }
  }

  /** Which JCA provider signs tokens. */
  public enum RsaEngine {
    /** Amazon Corretto Crypto Provider (AWS-LC) when its native library loads, else the JDK's. */
    ACCP,
    /** The JDK's own provider. */
    JDK
  }

  /** Who may read {@code /metrics} (issue 20). */
  public enum MetricsAccess {
    /** A bearer token of this service carrying {@code identity:metrics}: the default. */
    TOKEN,
    /** Anyone who reaches the path: where the network already guards it. */
    OPEN,
    /** Nobody: 404. */
    OFF
  }

  /** Where the rate limiter keeps its buckets. */
  public enum RateLimitStore {
    /** In this node's memory: the single-node default. */
    MEMORY,
    /** In the PostgreSQL database, shared by every node. */
    DATABASE
  }
}
