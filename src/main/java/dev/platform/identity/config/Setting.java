package dev.platform.identity.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every JNDI entry the service reads, declared once: its name, the kind of value it takes, its
 * default, the range a duration or number must lie in, and what it is for. {@link JndiSettings}
 * reads only declared entries and takes their defaults from here; a test holds
 * docs/configuration.md to the same list.
 */
public enum Setting {
  ISSUER("identity/issuer", "URL", inWebXml("http://127.0.0.1:8080"), "iss of every token"),
  TOKEN_LIFETIME(
      "identity/tokenLifetime",
      "duration",
      inWebXml("PT24H"),
      between("PT1M", "P1D"),
      "access-token lifetime"),
  ADMIN_TOKEN_LIFETIME(
      "identity/adminTokenLifetime",
      "duration",
      none(),
      from("PT1M"),
      "lifetime of a token granted an identity: scope, at most the token lifetime; unset, that"),

  SIGNING_KEY_SIZE(
      "identity/signingKeySize",
      "bits",
      inWebXml("2048"),
      between("2048", "8192"),
      "RSA modulus of new signing keys"),
  KEY_ROTATION_INTERVAL(
      "identity/keyRotationInterval",
      "duration",
      inWebXml("P90D"),
      upTo("P3650D"),
      "how long a key signs; at least the pre-publication time plus 1 hour"),
  /** At least an hour: SPEC 8 lets verifiers cache the key list that long. */
  KEY_PRE_PUBLICATION(
      "identity/keyPrePublication",
      "duration",
      inWebXml("PT24H"),
      between("PT1H", "P30D"),
      "how long a new key is listed before it signs"),
  KEY_RETENTION(
      "identity/keyRetention",
      "duration",
      inWebXml("PT25H"),
      upTo("P365D"),
      "how long a key stays listed after its last signature; at least the token lifetime + 5 min"),
  KEY_RING_REFRESH(
      "identity/keyRingRefresh",
      "duration",
      inWebXml("PT30S"),
      between("PT1S", "PT10M"),
      "how often each node recomputes its keys from the database"),
  MAX_PUBLISHED_KEYS(
      "identity/maxPublishedKeys",
      "count",
      inWebXml("10"),
      between("3", "100"),
      "the most keys the key list holds"),
  RSA_PROVIDER(
      "identity/rsaProvider", "accp or jdk", inWebXml("accp"), "JCA provider of RSA signatures"),
  KEY_STORE(
      "identity/keyStore",
      "database or pkcs11",
      unset("database"),
      "where new signing keys are made"),
  PKCS11_LIBRARY(
      "identity/pkcs11Library", "absolute file path", none(), "the HSM's PKCS#11 module"),
  PKCS11_SLOT("identity/pkcs11Slot", "slot id", none(), "the token's slot id"),
  PKCS11_TOKEN_LABEL(
      "identity/pkcs11TokenLabel", "token label", none(), "the token's label, instead of a slot"),
  PKCS11_PIN("identity/pkcs11Pin", "secret", none(), "the token's user PIN"),
  PKCS11_PIN_FILE(
      "identity/pkcs11PinFile", "absolute file path", none(), "the token's user PIN, as a file"),

  KEY_ENCRYPTION_KEY(
      "identity/keyEncryptionKey",
      "secret",
      none(),
      "AES-256 key that seals private signing keys; required, or its file"),
  KEY_ENCRYPTION_KEY_FILE(
      "identity/keyEncryptionKeyFile",
      "absolute file path",
      none(),
      "the key-encryption key, as a file"),
  PREVIOUS_KEY_ENCRYPTION_KEYS(
      "identity/previousKeyEncryptionKeys",
      "secret",
      none(),
      "earlier key-encryption keys, for opening only"),
  PREVIOUS_KEY_ENCRYPTION_KEYS_FILE(
      "identity/previousKeyEncryptionKeysFile",
      "absolute file path",
      none(),
      "earlier key-encryption keys, as a file"),
  SECRET_PEPPER(
      "identity/secretPepper",
      "secret",
      none(),
      "HMAC-SHA-256 key of client-secret digests; required, or its file"),
  SECRET_PEPPER_FILE(
      "identity/secretPepperFile", "absolute file path", none(), "the pepper, as a file"),
  PREVIOUS_SECRET_PEPPERS(
      "identity/previousSecretPeppers", "secret", none(), "earlier peppers, for checking only"),
  PREVIOUS_SECRET_PEPPERS_FILE(
      "identity/previousSecretPeppersFile",
      "absolute file path",
      none(),
      "earlier peppers, as a file"),

  BOOTSTRAP_CLIENT_ID(
      "identity/bootstrapClientId", "UUID", none(), "a configured first administrator"),
  BOOTSTRAP_CLIENT_SECRET(
      "identity/bootstrapClientSecret", "secret", none(), "its secret, at least 32 characters"),
  BOOTSTRAP_CLIENT_SECRET_FILE(
      "identity/bootstrapClientSecretFile", "absolute file path", none(), "its secret, as a file"),
  BOOTSTRAP_ORGANIZATION(
      "identity/bootstrapOrganization",
      "organization id",
      inWebXml("root"),
      "organization of the first administrator"),
  BOOTSTRAP_SECRET_OUTPUT(
      "identity/bootstrapSecretOutput",
      "log or file",
      inWebXml("log"),
      "where a generated first administrator's secret goes"),
  BOOTSTRAP_SECRET_FILE(
      "identity/bootstrapSecretFile",
      "absolute file path",
      none(),
      "the file a generated first administrator's secret goes to"),

  MAX_SECRET_OVERLAP(
      "identity/maxSecretOverlap",
      "duration",
      unset("P7D"),
      between("PT0S", "P90D"),
      "the longest a replaced client secret may keep working"),
  SECRET_MAX_AGE(
      "identity/secretMaxAge",
      "duration",
      none(),
      between("P1D", "P3650D"),
      "how old a client secret may grow; unset, no limit"),
  MANAGER_GRANTABLE_SCOPES(
      "identity/managerGrantableScopes",
      "scopes",
      none(),
      "scopes an account manager may grant beyond its own"),

  RATE_LIMIT_STORE(
      "identity/rateLimitStore",
      "memory or database",
      inWebXml("memory"),
      "where rate-limit buckets live"),
  TOKEN_RATE_LIMIT(
      "identity/tokenRateLimit",
      "per minute",
      inWebXml("60"),
      between("1", "1000000"),
      "successful token requests per minute per client"),
  REQUEST_THREADS_PER_ADDRESS(
      "identity/requestThreadsPerAddress",
      "count",
      unset("6"),
      between("1", "10000"),
      "the most request threads one client address holds at once"),
  TRUSTED_PROXIES(
      "identity/trustedProxies",
      "IP addresses",
      none(),
      "reverse proxies whose X-Forwarded-For is believed"),
  DATABASE_CONCURRENCY(
      "identity/databaseConcurrency",
      "count",
      unset("6"),
      between("1", "1000"),
      "the most database work at once"),
  DATABASE_STATEMENT_TIMEOUT(
      "identity/databaseStatementTimeout",
      "duration",
      unset("PT2S"),
      between("PT1S", "PT5M"),
      "the deadline of every database statement"),

  ALLOW_PRIVATE_JWKS_URIS(
      "identity/allowPrivateJwksUris",
      "boolean",
      unset("false"),
      "whether a client's jwks_uri may name an internal address"),
  JWKS_URI_PORTS(
      "identity/jwksUriPorts",
      "port list",
      none(),
      between("1", "65535"),
      "ports besides 443 a jwks_uri may name"),
  CLIENT_KEY_SET_MAX_AGE(
      "identity/clientKeySetMaxAge",
      "duration",
      unset("PT1H"),
      between("PT10M", "P1D"),
      "how long a client's last good key set is still used"),
  TLS_CLIENT_CA_FILE(
      "identity/tlsClientCaFile",
      "absolute file path",
      none(),
      "CA certificates (PEM) a tls_client_auth client's certificate must chain to"),
  DPOP_NONCES(
      "identity/dpopNonces",
      "boolean",
      unset("false"),
      "whether a DPoP proof must carry a server nonce (DPoP-Nonce)"),
  ASSERTION_AUDIENCE(
      "identity/assertionAudience",
      "issuer or issuer-or-token-endpoint",
      unset("issuer-or-token-endpoint"),
      "the aud a client assertion must carry"),

  METRICS_ACCESS(
      "identity/metricsAccess", "token, open or off", inWebXml("token"), "who may read /metrics"),
  AUDIT_RETENTION(
      "identity/auditRetention",
      "duration",
      unset("P400D"),
      between("P1D", "P3650D"),
      "how long the audit trail keeps an event"),
  CONSOLE_IDLE_TIMEOUT(
      "identity/consoleIdleTimeout",
      "duration",
      unset("PT15M"),
      between("PT1M", "PT8H"),
      "how long a console session lasts without a request"),
  REVOCATION_REFRESH(
      "identity/revocationRefresh",
      "duration",
      unset("PT0.5S"),
      between("PT0.1S", "PT1M"),
      "how often a node reads revocations that other nodes made");

  private static final Map<String, Setting> BY_ENTRY =
      Arrays.stream(values()).collect(Collectors.toMap(Setting::entry, Function.identity()));

  private final String entry;
  private final String type;
  private final Default byDefault;
  private final Optional<Range> range;
  private final String about;

  Setting(String entry, String type, Default byDefault, String about) {
    this(entry, type, byDefault, null, about);
  }

  Setting(String entry, String type, Default byDefault, Range range, String about) {
    this.entry = entry;
    this.type = type;
    this.byDefault = byDefault;
    this.range = Optional.ofNullable(range);
    this.about = about;
  }

  /** The entry's name relative to {@code java:comp/env}. */
  public String entry() {
    return entry;
  }

  /** The kind of value it takes, in the words of docs/configuration.md. */
  public String type() {
    return type;
  }

  /** The value a deployment gets without setting it; empty where there is none. */
  public String byDefault() {
    return byDefault.value();
  }

  /** Whether web.xml carries the default, and an entry the container leaves unbound is refused. */
  public boolean inWebXml() {
    return !byDefault.whenUnset();
  }

  /** The bounds of a duration or a number; empty where the value has none. */
  public Optional<Range> range() {
    return range;
  }

  /** What the entry is for, in a line. */
  public String about() {
    return about;
  }

  /** Whether the value is a secret: never echoed, not even as a placeholder. */
  public boolean secret() {
    return type.equals("secret");
  }

  /** What {@link JndiSettings} reads when the entry is unbound or blank; empty: nothing. */
  Optional<String> whenUnset() {
    return byDefault.whenUnset() && !byDefault.value().isEmpty()
        ? Optional.of(byDefault.value())
        : Optional.empty();
  }

  /** The declared setting of that name. */
  static Setting of(String entry) {
    Setting setting = BY_ENTRY.get(entry);
    if (setting == null) {
      throw new IllegalArgumentException(entry + " is not a declared setting");
    }
    return setting;
  }

  /**
   * The least and the most a value may be, as ISO-8601 durations or decimal numbers, both included;
   * an empty bound is another setting's value (the token lifetime, say), which the reader applies.
   */
  public record Range(String min, String max) {
    Duration shortest() {
      return Duration.parse(min);
    }

    Duration longest() {
      return Duration.parse(max);
    }

    int least() {
      return Integer.parseInt(min);
    }

    int most() {
      return Integer.parseInt(max);
    }
  }

  private static Range between(String min, String max) {
    return new Range(min, max);
  }

  /** At least {@code min}; the upper bound is another setting's value. */
  private static Range from(String min) {
    return new Range(min, "");
  }

  /** At most {@code max}; the lower bound follows from other settings. */
  private static Range upTo(String max) {
    return new Range("", max);
  }

  /**
   * A default, and who applies it.
   *
   * @param whenUnset true: the reader takes {@code value} when the entry is unbound or blank;
   *     false: web.xml gives {@code value}, and an unbound entry stops the start
   */
  private record Default(String value, boolean whenUnset) {}

  private static Default inWebXml(String value) {
    return new Default(value, false);
  }

  private static Default unset(String value) {
    return new Default(value, true);
  }

  private static Default none() {
    return new Default("", true);
  }
}
