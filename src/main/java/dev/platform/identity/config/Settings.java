package dev.platform.identity.config;

import java.net.URI;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import javax.crypto.SecretKey;

/**
 * Every setting of the service, typed and checked, in groups by who consumes them: each component
 * is handed its group, not the whole. Built by {@link JndiSettings#read}; each entry is declared
 * once in {@link Setting}.
 *
 * @param tokens what every token says and how long it lives
 * @param keys how signing keys are made, kept and rotated
 * @param secrets the server's own keys: they seal signing keys, digest client secrets and sessions
 * @param bootstrap the first administrator (ADMIN.md "Bootstrap")
 * @param accounts the rules of client secrets and of what account managers may grant
 * @param limits how much any one client, address or database call may take
 * @param clientKeys the rules of private_key_jwt clients' key sets and assertions
 * @param operations metrics, the audit trail and the console
 */
public record Settings(
    Tokens tokens,
    Keys keys,
    Secrets secrets,
    Bootstrap bootstrap,
    Accounts accounts,
    Limits limits,
    ClientKeys clientKeys,
    Operations operations) {

  /**
   * What every token says and how long it lives.
   *
   * @param issuer the {@code iss} of every token and the base of the discovery document
   * @param lifetime lifetime of an access token (SPEC 8: 24 hours)
   * @param adminLifetime lifetime of a token granted an {@code identity:} scope: at most {@code
   *     lifetime}, shorter where a stolen administrator's token should be worth less
   */
  public record Tokens(URI issuer, Duration lifetime, Duration adminLifetime) {}

  /**
   * How signing keys are made, kept, published and rotated.
   *
   * @param schedule the signing-key rotation schedule (DESIGN decision 4)
   * @param size RSA modulus length in bits
   * @param engine which JCA provider makes the RSA signatures
   * @param store where new signing keys are created
   * @param pkcs11 the HSM that holds signing keys, when one is configured; required when {@code
   *     store} is {@link KeyStore#PKCS11}, and kept open under {@link KeyStore#DATABASE} so that
   *     keys already in it keep signing
   * @param maxPublished the most signing keys the published list may hold; operators' rotations
   *     that would pass it are refused, keeping one place for the schedule's next key
   */
  public record Keys(
      KeySchedule schedule,
      int size,
      RsaEngine engine,
      KeyStore store,
      Optional<Pkcs11> pkcs11,
      int maxPublished) {}

  /**
   * The server's own keys. Never printed: {@link #toString} names only how many there are.
   *
   * @param keyEncryptionKey AES-256 key that encrypts the private signing keys at rest
   * @param previousKeyEncryptionKeys earlier key-encryption keys, for opening what they sealed
   *     until it is sealed anew under {@code keyEncryptionKey}; never used to seal
   * @param pepper HMAC-SHA-256 key under which client secrets are digested
   * @param previousPeppers earlier peppers, for checking secrets digested under them until a
   *     successful authentication digests them anew under {@code pepper}
   */
  public record Secrets(
      SecretKey keyEncryptionKey,
      List<SecretKey> previousKeyEncryptionKeys,
      SecretKey pepper,
      List<SecretKey> previousPeppers) {
    @Override
    public String toString() {
      return "Secrets[keyEncryptionKey=(hidden), previousKeyEncryptionKeys="
          + previousKeyEncryptionKeys.size()
          + " (hidden), pepper=(hidden), previousPeppers="
          + previousPeppers.size()
          + " (hidden)]";
    }
  }

  /**
   * The first administrator.
   *
   * @param account the configured bootstrap administrator, if any
   * @param organization organization of the bootstrap administrator
   * @param secretFile where a generated bootstrap administrator's credentials are written
   *     (owner-only, once); empty: to the log
   */
  public record Bootstrap(
      Optional<BootstrapAccount> account, String organization, Optional<Path> secretFile) {}

  /**
   * The rules of client secrets and of what account managers may grant.
   *
   * @param secretRotation how long a replaced client secret may keep working, and how old a current
   *     one may grow
   * @param managerGrantableScopes scopes a caller without {@code identity:admin} may grant beyond
   *     its own (wildcards allowed); empty: only its own
   */
  public record Accounts(SecretRotation secretRotation, List<String> managerGrantableScopes) {}

  /**
   * How much any one client, address or database call may take.
   *
   * @param rateLimitStore where rate-limit buckets live
   * @param tokenRateLimit successful token requests per minute per client (SPEC 8: 60)
   * @param requestThreadsPerAddress the most request threads one client address may hold at once;
   *     beyond it, 429 at once
   * @param trustedProxies addresses of reverse proxies whose {@code X-Forwarded-For} is believed
   * @param database how much database work runs at once and how long a statement may take
   */
  public record Limits(
      RateLimitStore rateLimitStore,
      int tokenRateLimit,
      int requestThreadsPerAddress,
      List<String> trustedProxies,
      DatabaseLimits database) {}

  /**
   * The rules of private_key_jwt clients.
   *
   * @param allowPrivateJwksUris whether a client's {@code jwks_uri} may name a loopback, link-local
   *     or private address; off, the service cannot be aimed at the internal network
   * @param jwksUris which ports a {@code jwks_uri} may name and how old its last good key set may
   *     grow
   * @param assertionAudience which single {@code aud} a client assertion may carry
   * @param tlsClientAuthorities the CAs a {@code tls_client_auth} client's certificate must chain
   *     to ({@code identity/tlsClientCaFile}); empty: no such client can be registered
   * @param dpopNonces whether a DPoP proof at the token endpoint must carry a server nonce (RFC
   *     9449 §8, {@code identity/dpopNonces})
   */
  public record ClientKeys(
      boolean allowPrivateJwksUris,
      JwksUris jwksUris,
      AssertionAudience assertionAudience,
      List<X509Certificate> tlsClientAuthorities,
      boolean dpopNonces) {}

  /**
   * What operators watch and use.
   *
   * @param metricsAccess who may read {@code /metrics}
   * @param auditRetention how long the audit trail in the database keeps an event
   * @param consoleIdleTimeout how long a console session lasts without a request
   * @param revocationRefresh how often a node reads the revocations other nodes made (issue 38)
   */
  public record Operations(
      MetricsAccess metricsAccess,
      Duration auditRetention,
      Duration consoleIdleTimeout,
      Duration revocationRefresh) {}

  /**
   * The limits of clients' {@code jwks_uri}s.
   *
   * @param ports the ports besides 443 a URL may name; empty: 443 only
   * @param keySetMaxAge how long after its last successful fetch a key set is still served; past
   *     it, the client's assertions are refused until a fetch succeeds
   */
  public record JwksUris(Set<Integer> ports, Duration keySetMaxAge) {}

  /**
   * The bulkhead and the deadline of database work (docs/operating.md "When the database stalls").
   *
   * @param concurrency the most connections in use at once; more is refused at once. Below the
   *     connector's request threads, so that threads remain for what is answered from memory, and
   *     below the pool's size, so that the readiness probe and the scheduler find a connection
   * @param statementTimeout the deadline of every statement (whole seconds)
   */
  public record DatabaseLimits(int concurrency, Duration statementTimeout) {}

  /** A bootstrap administrator whose credentials the operator chose. */
  public record BootstrapAccount(UUID clientId, String clientSecret) {
    @Override
    public String toString() {
      return "BootstrapAccount[clientId=" + clientId + ", clientSecret=(hidden)]";
    }
  }

  /**
   * The limits of client secrets.
   *
   * @param maxOverlap the longest a rotation may let the replaced secret keep working
   * @param maxAge how old a current secret may be before it is refused; empty: no limit
   */
  public record SecretRotation(Duration maxOverlap, Optional<Duration> maxAge) {}

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

  /** Where new signing keys are created. */
  public enum KeyStore {
    /** RSA keys made in the JVM, their private halves sealed under the key-encryption key. */
    DATABASE,
    /** RSA keys made inside a PKCS#11 token, whose private halves never leave it. */
    PKCS11
  }

  /**
   * A PKCS#11 token: the module, the token, and the user PIN.
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

  /**
   * The {@code aud} a private_key_jwt client assertion may carry: always one string, never an array
   * (draft-ietf-oauth-rfc7523bis).
   */
  public enum AssertionAudience {
    /** The issuer alone, as the draft asks. */
    ISSUER,
    /** The issuer, or the token endpoint's URL, which the Nimbus OAuth SDK and Spring send. */
    ISSUER_OR_TOKEN_ENDPOINT
  }

  /** Which JCA provider signs tokens. */
  public enum RsaEngine {
    /** Amazon Corretto Crypto Provider (AWS-LC) when its native library loads, else the JDK's. */
    ACCP,
    /** The JDK's own provider. */
    JDK
  }

  /** Who may read {@code /metrics}. */
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
