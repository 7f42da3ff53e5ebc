package dev.platform.identity.config;

import dev.platform.identity.config.Settings.BootstrapAccount;
import dev.platform.identity.config.Settings.KeySchedule;
import dev.platform.identity.config.Settings.RateLimitStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;

/**
 * Reads {@link Settings} from {@code java:comp/env}. Defaults are the {@code <env-entry>}s of
 * {@code WEB-INF/web.xml}; the container overrides them (Tomcat {@code context.xml}, Payara). Only
 * entries declared in {@link Setting} are read; one left unbound or blank takes the default
 * declared there, where it has one (Payara binds no name for an empty env-entry). The constants
 * below are the declared names, for messages that point an operator at an entry.
 */
public final class JndiSettings {
  public static final String ISSUER = Setting.ISSUER.entry();
  public static final String TOKEN_LIFETIME = Setting.TOKEN_LIFETIME.entry();
  public static final String KEY_ENCRYPTION_KEY = Setting.KEY_ENCRYPTION_KEY.entry();
  public static final String SECRET_PEPPER = Setting.SECRET_PEPPER.entry();
  public static final String BOOTSTRAP_CLIENT_ID = Setting.BOOTSTRAP_CLIENT_ID.entry();
  public static final String BOOTSTRAP_CLIENT_SECRET = Setting.BOOTSTRAP_CLIENT_SECRET.entry();
  public static final String BOOTSTRAP_ORGANIZATION = Setting.BOOTSTRAP_ORGANIZATION.entry();
  public static final String SIGNING_KEY_SIZE = Setting.SIGNING_KEY_SIZE.entry();
  public static final String KEY_ROTATION_INTERVAL = Setting.KEY_ROTATION_INTERVAL.entry();
  public static final String KEY_PRE_PUBLICATION = Setting.KEY_PRE_PUBLICATION.entry();
  public static final String KEY_RETENTION = Setting.KEY_RETENTION.entry();
  public static final String KEY_RING_REFRESH = Setting.KEY_RING_REFRESH.entry();
  public static final String RATE_LIMIT_STORE = Setting.RATE_LIMIT_STORE.entry();
  public static final String RSA_PROVIDER = Setting.RSA_PROVIDER.entry();
  public static final String TRUSTED_PROXIES = Setting.TRUSTED_PROXIES.entry();
  public static final String TOKEN_RATE_LIMIT = Setting.TOKEN_RATE_LIMIT.entry();
  public static final String ADMIN_TOKEN_LIFETIME = Setting.ADMIN_TOKEN_LIFETIME.entry();
  public static final String MANAGER_GRANTABLE_SCOPES = Setting.MANAGER_GRANTABLE_SCOPES.entry();
  public static final String MAX_PUBLISHED_KEYS = Setting.MAX_PUBLISHED_KEYS.entry();
  public static final String REQUEST_THREADS_PER_ADDRESS =
      Setting.REQUEST_THREADS_PER_ADDRESS.entry();

  public static final String KEY_ENCRYPTION_KEY_FILE = Setting.KEY_ENCRYPTION_KEY_FILE.entry();
  public static final String SECRET_PEPPER_FILE = Setting.SECRET_PEPPER_FILE.entry();
  public static final String BOOTSTRAP_CLIENT_SECRET_FILE =
      Setting.BOOTSTRAP_CLIENT_SECRET_FILE.entry();
  public static final String BOOTSTRAP_SECRET_OUTPUT = Setting.BOOTSTRAP_SECRET_OUTPUT.entry();
  public static final String BOOTSTRAP_SECRET_FILE = Setting.BOOTSTRAP_SECRET_FILE.entry();
  public static final String MAX_SECRET_OVERLAP = Setting.MAX_SECRET_OVERLAP.entry();
  public static final String SECRET_MAX_AGE = Setting.SECRET_MAX_AGE.entry();
  public static final String AUDIT_RETENTION = Setting.AUDIT_RETENTION.entry();
  public static final String CONSOLE_IDLE_TIMEOUT = Setting.CONSOLE_IDLE_TIMEOUT.entry();
  public static final String REVOCATION_REFRESH = Setting.REVOCATION_REFRESH.entry();
  public static final String PREVIOUS_KEY_ENCRYPTION_KEYS =
      Setting.PREVIOUS_KEY_ENCRYPTION_KEYS.entry();
  public static final String PREVIOUS_KEY_ENCRYPTION_KEYS_FILE =
      Setting.PREVIOUS_KEY_ENCRYPTION_KEYS_FILE.entry();
  public static final String PREVIOUS_SECRET_PEPPERS = Setting.PREVIOUS_SECRET_PEPPERS.entry();
  public static final String PREVIOUS_SECRET_PEPPERS_FILE =
      Setting.PREVIOUS_SECRET_PEPPERS_FILE.entry();
  public static final String METRICS_ACCESS = Setting.METRICS_ACCESS.entry();

  /** The aud a client assertion may carry. */
  public static final String ASSERTION_AUDIENCE = Setting.ASSERTION_AUDIENCE.entry();

  /** The bulkhead and the deadline of database work. */
  public static final String DATABASE_CONCURRENCY = Setting.DATABASE_CONCURRENCY.entry();

  public static final String DATABASE_STATEMENT_TIMEOUT =
      Setting.DATABASE_STATEMENT_TIMEOUT.entry();

  /** Where new signing keys are made, and the PKCS#11 token that may hold them. */
  public static final String KEY_STORE = Setting.KEY_STORE.entry();

  public static final String PKCS11_LIBRARY = Setting.PKCS11_LIBRARY.entry();
  public static final String PKCS11_SLOT = Setting.PKCS11_SLOT.entry();
  public static final String PKCS11_TOKEN_LABEL = Setting.PKCS11_TOKEN_LABEL.entry();
  public static final String PKCS11_PIN = Setting.PKCS11_PIN.entry();
  public static final String PKCS11_PIN_FILE = Setting.PKCS11_PIN_FILE.entry();

  /** Whether a client's jwks_uri may name a private address. */
  public static final String ALLOW_PRIVATE_JWKS_URIS = Setting.ALLOW_PRIVATE_JWKS_URIS.entry();

  public static final String DPOP_NONCES = Setting.DPOP_NONCES.entry();

  /** The ports besides 443 a client's jwks_uri may name. */
  public static final String JWKS_URI_PORTS = Setting.JWKS_URI_PORTS.entry();

  /** How old the last good key set of a jwks_uri may grow before it is refused. */
  public static final String CLIENT_KEY_SET_MAX_AGE = Setting.CLIENT_KEY_SET_MAX_AGE.entry();

  public static final String TLS_CLIENT_CA_FILE = Setting.TLS_CLIENT_CA_FILE.entry();

  /** Clock skew a verifier may allow beyond {@code exp}. */
  static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  /** An organization id, here and in the administration API: 1 to 64 of {@code A-Za-z0-9._-}. */
  public static final Pattern ORGANIZATION = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private static final int MIN_BOOTSTRAP_SECRET = 32;

  /** Any service's scope but this service's own: identity: scopes are never a manager's to give. */
  private static final Pattern GRANTABLE_SCOPE =
      Pattern.compile("(?!identity:)[a-z0-9_-]{1,100}:[A-Za-z0-9._*-]{1,200}");

  /**
   * What Tomcat ({@code ${name}}) and Payara ({@code ${name}}, {@code ${ENV=NAME}}) leave in place
   * when no system property or environment variable of that name exists.
   */
  static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");

  /** A placeholder's name that may be echoed into a log: short, one line, no markup. */
  static final Pattern PLACEHOLDER_NAME = Pattern.compile("[A-Za-z0-9._=-]{1,100}");

  /** Previous keys are kept for a rotation, not for ever. */
  static final int MAX_PREVIOUS_KEYS = 5;

  private static final Pattern IP_LITERAL =
      Pattern.compile("(\\d{1,3}(\\.\\d{1,3}){3})|([0-9A-Fa-f:]*:[0-9A-Fa-f:.]*)");

  private static final Logger LOG = Logger.getLogger(JndiSettings.class.getName());

  /** An entry's value relative to {@code java:comp/env}, or null when it is not bound. */
  private final Function<String, Object> lookup;

  /** A value by its whole global name, or null when it is not bound. */
  private final Function<String, Object> global;

  /** The entries read from a global name, and that name: errors name where a value was given. */
  private final Map<String, String> givenGlobally = new TreeMap<>();

  private JndiSettings(Function<String, Object> lookup, Function<String, Object> global) {
    this.lookup = lookup;
    this.global = global;
  }

  /**
   * Reads the settings of this web application from {@code java:comp/env} and the server's global
   * names ({@link #globalNames}), and logs which were global (the names only, never a value).
   */
  public static Settings fromJndi() {
    JndiSettings reader =
        new JndiSettings(JndiSettings::lookupInEnvironment, JndiSettings::lookupGlobal);
    Settings settings = reader.settings();
    if (!reader.givenGlobally.isEmpty()) {
      LOG.info(
          "Settings given by the server's global JNDI names: " + reader.givenGlobally.values());
    }
    return settings;
  }

  /**
   * Reads and checks the settings through {@code lookup}, which returns an entry's value by its
   * name relative to {@code java:comp/env}, or null when it is not bound; no global names.
   *
   * @throws InvalidSettingException naming the first entry that is missing or invalid
   */
  public static Settings read(Function<String, Object> lookup) {
    return read(lookup, name -> null);
  }

  /**
   * The same, with {@code global} giving a value by its whole global name ({@link #globalNames}),
   * or null when that is not bound.
   */
  public static Settings read(Function<String, Object> lookup, Function<String, Object> global) {
    return new JndiSettings(lookup, global).settings();
  }

  /**
   * Where an operator may give the entry with the server's own tool rather than in the WAR's
   * environment (issue 41), in the order they are read: WildFly's naming subsystem binds {@code
   * java:global/identity/X}, Payara Server's {@code create-custom-resource} the bare {@code
   * identity/X}. Tomcat has no global name a web application can read without a {@code
   * ResourceLink}: there the entry is an {@code <Environment>} of the context, as before.
   */
  public static List<String> globalNames(String entry) {
    return List.of("java:global/" + entry, entry);
  }

  private Settings settings() {
    try {
      return checkedSettings();
    } catch (InvalidSettingException e) {
      String name = givenGlobally.get(e.entry());
      throw name == null ? e : e.givenAt(name);
    }
  }

  private Settings checkedSettings() {
    Duration tokenLifetime = duration(TOKEN_LIFETIME, range(TOKEN_LIFETIME).shortest(), "1 minute");
    Duration prePublication =
        duration(KEY_PRE_PUBLICATION, range(KEY_PRE_PUBLICATION).shortest(), "1 hour");
    Duration retention =
        duration(
            KEY_RETENTION, tokenLifetime.plus(CLOCK_SKEW), "the token lifetime plus 5 minutes");
    Duration rotation =
        duration(
            KEY_ROTATION_INTERVAL,
            prePublication.plusHours(1),
            "the pre-publication time plus 1 hour");
    Duration refresh = duration(KEY_RING_REFRESH);
    SecretKey keyEncryptionKey =
        aesKey(requiredSecret(KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_FILE));
    SecretKey pepper = hmacKey(requiredSecret(SECRET_PEPPER, SECRET_PEPPER_FILE));
    List<SecretKey> previousKeyEncryptionKeys =
        previousKeys(
            PREVIOUS_KEY_ENCRYPTION_KEYS,
            PREVIOUS_KEY_ENCRYPTION_KEYS_FILE,
            KEY_ENCRYPTION_KEY,
            keyEncryptionKey,
            JndiSettings::aesKey);
    List<SecretKey> previousPeppers =
        previousKeys(
            PREVIOUS_SECRET_PEPPERS,
            PREVIOUS_SECRET_PEPPERS_FILE,
            SECRET_PEPPER,
            pepper,
            JndiSettings::hmacKey);
    refuseSharedKeys(keyEncryptionKey, previousKeyEncryptionKeys, pepper, previousPeppers);
    Settings.KeyStore keyStore = keyStore();
    Optional<Settings.Pkcs11> pkcs11 = pkcs11(keyStore);
    // Read in this order, so that of several bad entries the same one is named as before.
    URI issuer = issuer();
    Optional<BootstrapAccount> bootstrap = bootstrap();
    String organization = organization(BOOTSTRAP_ORGANIZATION);
    int keySize = keySize();
    RateLimitStore rateLimitStore = rateLimitStore();
    int tokenRateLimit = tokenRateLimit();
    List<String> trustedProxies = trustedProxies();
    Settings.RsaEngine rsaEngine = rsaEngine();
    Duration adminTokenLifetime = adminTokenLifetime(tokenLifetime);
    List<String> managerGrantableScopes = managerGrantableScopes();
    int maxPublishedKeys = maxPublishedKeys();
    Optional<Path> bootstrapSecretFile = bootstrapSecretFile();
    Settings.SecretRotation secretRotation = secretRotation();
    Settings.MetricsAccess metricsAccess = metricsAccess();
    Duration auditRetention = auditRetention();
    Duration consoleIdleTimeout = consoleIdleTimeout();
    Duration revocationRefresh = duration(REVOCATION_REFRESH);
    boolean allowPrivateJwksUris = bool(ALLOW_PRIVATE_JWKS_URIS);
    boolean dpopNonces = bool(DPOP_NONCES);
    int requestThreadsPerAddress = requestThreadsPerAddress();
    Settings.JwksUris jwksUris = jwksUris();
    Settings.AssertionAudience assertionAudience = assertionAudience();
    List<X509Certificate> tlsClientAuthorities = tlsClientAuthorities();
    Settings.DatabaseLimits databaseLimits = databaseLimits();
    return new Settings(
        new Settings.Tokens(issuer, tokenLifetime, adminTokenLifetime),
        new Settings.Keys(
            new KeySchedule(rotation, prePublication, retention, refresh),
            keySize,
            rsaEngine,
            keyStore,
            pkcs11,
            maxPublishedKeys),
        new Settings.Secrets(keyEncryptionKey, previousKeyEncryptionKeys, pepper, previousPeppers),
        new Settings.Bootstrap(bootstrap, organization, bootstrapSecretFile),
        new Settings.Accounts(secretRotation, managerGrantableScopes),
        new Settings.Limits(
            rateLimitStore,
            tokenRateLimit,
            requestThreadsPerAddress,
            trustedProxies,
            databaseLimits),
        new Settings.ClientKeys(
            allowPrivateJwksUris, jwksUris, assertionAudience, tlsClientAuthorities, dpopNonces),
        new Settings.Operations(
            metricsAccess, auditRetention, consoleIdleTimeout, revocationRefresh));
  }

  private Settings.AssertionAudience assertionAudience() {
    String text = required(ASSERTION_AUDIENCE);
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "issuer" -> Settings.AssertionAudience.ISSUER;
      case "issuer-or-token-endpoint" -> Settings.AssertionAudience.ISSUER_OR_TOKEN_ENDPOINT;
      default ->
          throw new InvalidSettingException(
              ASSERTION_AUDIENCE,
              "must be 'issuer' or 'issuer-or-token-endpoint', not '" + text + "'");
    };
  }

  /** At most 1000 at once, a deadline of whole seconds (JDBC's unit) from 1 s to 5 minutes. */
  private Settings.DatabaseLimits databaseLimits() {
    int concurrency = wholeNumber(DATABASE_CONCURRENCY);
    Duration timeout = duration(DATABASE_STATEMENT_TIMEOUT);
    if (timeout.toNanos() % 1_000_000_000L != 0) {
      throw new InvalidSettingException(
          DATABASE_STATEMENT_TIMEOUT, "must be whole seconds (JDBC's unit), not " + timeout);
    }
    return new Settings.DatabaseLimits(concurrency, timeout);
  }

  private int wholeNumber(String entry) {
    int min = range(entry).least();
    int max = range(entry).most();
    String text = required(entry);
    int number;
    try {
      number = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(entry, "is not a whole number: '" + text + "'");
    }
    if (number < min || number > max) {
      throw new InvalidSettingException(
          entry, "must be from " + min + " to " + max + ", not " + number);
    }
    return number;
  }

  private Settings.KeyStore keyStore() {
    String text = required(KEY_STORE);
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "database" -> Settings.KeyStore.DATABASE;
      case "pkcs11" -> Settings.KeyStore.PKCS11;
      default ->
          throw new InvalidSettingException(
              KEY_STORE, "must be 'database' or 'pkcs11', not '" + text + "'");
    };
  }

  /**
   * The token, when {@code identity/pkcs11Library} is set: required for {@code pkcs11}; kept under
   * {@code database}, so keys already in the token sign until they retire.
   */
  private Optional<Settings.Pkcs11> pkcs11(Settings.KeyStore keyStore) {
    Optional<String> library = optional(PKCS11_LIBRARY);
    Optional<String> slotText = optional(PKCS11_SLOT);
    Optional<String> label = optional(PKCS11_TOKEN_LABEL);
    Optional<Secret> pin = secret(PKCS11_PIN, PKCS11_PIN_FILE);
    if (library.isEmpty()) {
      if (keyStore == Settings.KeyStore.PKCS11) {
        throw new InvalidSettingException(
            PKCS11_LIBRARY,
            "must name the PKCS#11 module (an absolute path) when "
                + name(KEY_STORE)
                + " is 'pkcs11'");
      }
      String stray =
          slotText.isPresent()
              ? PKCS11_SLOT
              : label.isPresent() ? PKCS11_TOKEN_LABEL : pin.map(Secret::entry).orElse(null);
      if (stray != null) {
        throw new InvalidSettingException(
            stray, "is set, but " + name(PKCS11_LIBRARY) + " is not; set both or neither");
      }
      return Optional.empty();
    }
    // The provider's configuration would read a quote, a backslash or a newline as syntax, and
    // expands ${property} after this check: none of them in a module's path.
    if (!library.get().matches("[^\\p{Cntrl}\"\\\\$]+")) {
      throw new InvalidSettingException(
          PKCS11_LIBRARY, "must not hold control characters, quotes, backslashes or '$'");
    }
    Path module = path(PKCS11_LIBRARY, library.get());
    if (!Files.isRegularFile(module)) {
      throw new InvalidSettingException(
          PKCS11_LIBRARY, "names " + module + ", which is not a file; install the module there");
    }
    if (slotText.isPresent() == label.isPresent()) {
      throw new InvalidSettingException(
          PKCS11_SLOT,
          (slotText.isPresent()
                  ? "and " + name(PKCS11_TOKEN_LABEL) + " are both set"
                  : "is not set, nor is " + name(PKCS11_TOKEN_LABEL))
              + "; name the token by exactly one of them");
    }
    OptionalLong slot = OptionalLong.empty();
    if (slotText.isPresent()) {
      try {
        slot = OptionalLong.of(Long.parseUnsignedLong(slotText.get()));
      } catch (NumberFormatException e) {
        throw new InvalidSettingException(
            PKCS11_SLOT, "is not a slot id (a whole number): '" + slotText.get() + "'");
      }
    }
    if (label.isPresent()
        && (label.get().length() > 32 || !label.get().matches("[\\x20-\\x7e]+"))) {
      throw new InvalidSettingException(
          PKCS11_TOKEN_LABEL, "must be 1 to 32 printable ASCII characters (PKCS#11 token labels)");
    }
    Secret userPin =
        pin.orElseThrow(
            () ->
                new InvalidSettingException(
                    PKCS11_PIN,
                    "is not set, nor is its file form "
                        + name(PKCS11_PIN_FILE)
                        + "; the token's user PIN is needed to sign"));
    if (userPin.text().indexOf('\n') >= 0) {
      throw userPin.invalid("must be one line");
    }
    return Optional.of(new Settings.Pkcs11(module, slot, label, userPin.text()));
  }

  /** Unset meaning 443 only; the age from PT10M to P1D. */
  private Settings.JwksUris jwksUris() {
    Set<Integer> ports = new TreeSet<>();
    for (String text :
        optional(JWKS_URI_PORTS).map(t -> t.split("[,\\s]+")).orElse(new String[0])) {
      int port;
      try {
        port = Integer.parseInt(text);
      } catch (NumberFormatException e) {
        port = 0;
      }
      if (port < range(JWKS_URI_PORTS).least() || port > range(JWKS_URI_PORTS).most()) {
        throw new InvalidSettingException(
            JWKS_URI_PORTS,
            "must list TCP ports ("
                + range(JWKS_URI_PORTS).least()
                + " to "
                + range(JWKS_URI_PORTS).most()
                + ") separated by commas, not '"
                + text.replaceAll("[^\\x20-\\x7e]", "?")
                + "'");
      }
      ports.add(port);
    }
    Duration maxAge = duration(CLIENT_KEY_SET_MAX_AGE);
    return new Settings.JwksUris(Set.copyOf(ports), maxAge);
  }

  /**
   * The CA certificates of {@code identity/tlsClientCaFile}, PEM, at least one; empty when unset.
   * Each must be valid now: an expired CA would refuse every client it issued, which should stop
   * the start rather than the clients. And each must be a CA's.
   */
  private List<X509Certificate> tlsClientAuthorities() {
    Optional<String> text = optional(TLS_CLIENT_CA_FILE);
    if (text.isEmpty()) {
      return List.of();
    }
    Path file = path(TLS_CLIENT_CA_FILE, text.get());
    Collection<? extends Certificate> read;
    try (InputStream in = Files.newInputStream(file)) {
      read = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (IOException e) {
      throw new InvalidSettingException(
          TLS_CLIENT_CA_FILE, "names " + file + ", which cannot be read: " + e.getMessage());
    } catch (CertificateException e) {
      throw new InvalidSettingException(
          TLS_CLIENT_CA_FILE,
          "names " + file + ", which is not PEM certificates: " + e.getMessage());
    }
    if (read.isEmpty()) {
      throw new InvalidSettingException(
          TLS_CLIENT_CA_FILE, "names " + file + ", which holds no certificate");
    }
    List<X509Certificate> authorities = new ArrayList<>();
    for (Certificate certificate : read) {
      X509Certificate authority = (X509Certificate) certificate;
      try {
        authority.checkValidity();
      } catch (CertificateException e) {
        throw new InvalidSettingException(
            TLS_CLIENT_CA_FILE,
            "names "
                + file
                + ", whose certificate "
                + authority.getSubjectX500Principal()
                + " is not valid now: "
                + e.getMessage());
      }
      // An anchor's extensions are not checked by the JDK: a client's own certificate here would
      // let its holder sign certificates for any subject (review 39).
      boolean[] usage = authority.getKeyUsage();
      if (authority.getBasicConstraints() < 0 || (usage != null && !usage[5])) {
        throw new InvalidSettingException(
            TLS_CLIENT_CA_FILE,
            "names "
                + file
                + ", whose certificate "
                + authority.getSubjectX500Principal()
                + " is not a CA's (basicConstraints cA and, where it has a key usage,"
                + " keyCertSign): a client's own certificate is registered on its account"
                + " (self_signed_tls_client_auth), never here");
      }
      authorities.add(authority);
    }
    return List.copyOf(authorities);
  }

  /** Only 'true' or 'false', in any case. */
  private boolean bool(String entry) {
    String text = required(entry);
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new InvalidSettingException(entry, "must be 'true' or 'false', not '" + text + "'");
    };
  }

  /** From a minute to 8 hours (a session never outlives its token). */
  private Duration consoleIdleTimeout() {
    return duration(CONSOLE_IDLE_TIMEOUT);
  }

  /** From a day to 10 years. */
  private Duration auditRetention() {
    return duration(AUDIT_RETENTION);
  }

  /**
   * A pepper and a key-encryption key are two secrets with two jobs; the same bytes in both would
   * let whoever holds one hold the other.
   */
  private static void refuseSharedKeys(
      SecretKey keyEncryptionKey,
      List<SecretKey> previousKeyEncryptionKeys,
      SecretKey pepper,
      List<SecretKey> previousPeppers) {
    List<SecretKey> keyEncryptionKeys = new ArrayList<>(previousKeyEncryptionKeys);
    keyEncryptionKeys.add(0, keyEncryptionKey);
    List<SecretKey> peppers = new ArrayList<>(previousPeppers);
    peppers.add(0, pepper);
    for (int p = 0; p < peppers.size(); p++) {
      for (int k = 0; k < keyEncryptionKeys.size(); k++) {
        if (MessageDigest.isEqual(
            peppers.get(p).getEncoded(), keyEncryptionKeys.get(k).getEncoded())) {
          throw new InvalidSettingException(
              p == 0 ? SECRET_PEPPER : PREVIOUS_SECRET_PEPPERS,
              (p == 0 ? "" : "(key " + p + ") ")
                  + "is the same key as java:comp/env/"
                  + (k == 0
                      ? KEY_ENCRYPTION_KEY
                      : PREVIOUS_KEY_ENCRYPTION_KEYS + " (key " + k + ")")
                  + "; the pepper and the key-encryption key must be separate random keys");
        }
      }
    }
  }

  /**
   * Keys that only open what was sealed or digested before a rotation, comma- or
   * whitespace-separated, each checked as {@code check} checks the current one. Each must differ
   * from {@code current} and from the others; a problem names the entry and the key's position,
   * never the key.
   */
  private List<SecretKey> previousKeys(
      String entry,
      String fileEntry,
      String currentEntry,
      SecretKey current,
      Function<Secret, SecretKey> check) {
    Optional<Secret> secret = secret(entry, fileEntry);
    if (secret.isEmpty()) {
      return List.of();
    }
    String[] texts = secret.get().text().split("[,\\s]+");
    if (texts.length > MAX_PREVIOUS_KEYS) {
      throw secret
          .get()
          .invalid(
              "lists "
                  + texts.length
                  + " keys; keep at most "
                  + MAX_PREVIOUS_KEYS
                  + " (remove those no stored row uses any more)");
    }
    List<SecretKey> keys = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      String position = "key " + (i + 1) + " of " + texts.length;
      if (texts[i].isEmpty()) {
        throw secret.get().invalid("has an empty " + position + " (a stray comma?)");
      }
      SecretKey key =
          check.apply(
              new Secret(
                  texts[i], secret.get().entry(), secret.get().about() + "(" + position + ") "));
      if (MessageDigest.isEqual(key.getEncoded(), current.getEncoded())) {
        throw secret
            .get()
            .invalid(
                "("
                    + position
                    + ") is the same key as "
                    + name(currentEntry)
                    + "; a previous key must differ from the current one");
      }
      for (int j = 0; j < keys.size(); j++) {
        if (MessageDigest.isEqual(key.getEncoded(), keys.get(j).getEncoded())) {
          throw secret
              .get()
              .invalid("lists the same key twice (keys " + (j + 1) + " and " + (i + 1) + ")");
        }
      }
      keys.add(key);
    }
    return List.copyOf(keys);
  }

  /** The overlap cap up to 90 days; the maximum age, unset meaning none, from a day to 10 years. */
  private Settings.SecretRotation secretRotation() {
    Duration maxOverlap = duration(MAX_SECRET_OVERLAP);
    Optional<Duration> maxAge =
        optional(SECRET_MAX_AGE).isEmpty()
            ? Optional.empty()
            : Optional.of(duration(SECRET_MAX_AGE));
    return new Settings.SecretRotation(maxOverlap, maxAge);
  }

  /** Unset: the token lifetime; else from a minute up to the token lifetime. */
  private Duration adminTokenLifetime(Duration tokenLifetime) {
    return optional(ADMIN_TOKEN_LIFETIME).isEmpty()
        ? tokenLifetime
        : duration(
            ADMIN_TOKEN_LIFETIME,
            range(ADMIN_TOKEN_LIFETIME).shortest(),
            tokenLifetime,
            range(ADMIN_TOKEN_LIFETIME).min());
  }

  /** Scopes as the catalog names them (service:name or service:*), comma- or space-separated. */
  private List<String> managerGrantableScopes() {
    List<String> scopes =
        optional(MANAGER_GRANTABLE_SCOPES)
            .map(text -> List.of(text.split("[,\\s]+")))
            .orElse(List.of());
    for (String scope : scopes) {
      if (!GRANTABLE_SCOPE.matcher(scope).matches()) {
        throw new InvalidSettingException(
            MANAGER_GRANTABLE_SCOPES,
            "must list scopes such as kitchen:orders.create or kitchen:*, not '" + scope + "'");
      }
    }
    return scopes;
  }

  private URI issuer() {
    String text = required(ISSUER);
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new InvalidSettingException(ISSUER, "is not a URL: " + e.getReason());
    }
    if (!uri.isAbsolute() || uri.getHost() == null) {
      throw new InvalidSettingException(ISSUER, "must be an absolute URL such as https://host");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getUserInfo() != null) {
      throw new InvalidSettingException(ISSUER, "must have no query, fragment or user (RFC 8414)");
    }
    if (text.endsWith("/")) {
      throw new InvalidSettingException(ISSUER, "must not end with '/'");
    }
    boolean https = "https".equalsIgnoreCase(uri.getScheme());
    boolean loopbackHttp =
        "http".equalsIgnoreCase(uri.getScheme()) && LoopbackHost.is(uri.getHost());
    if (!https && !loopbackHttp) {
      throw new InvalidSettingException(
          ISSUER, "must use https (plain http is allowed only on a loopback host)");
    }
    return uri;
  }

  /** The declared range of {@code entry}. */
  private static Setting.Range range(String entry) {
    return Setting.of(entry).range().orElseThrow();
  }

  /** A duration within the declared range, whose lower bound a message names as declared. */
  private Duration duration(String entry) {
    return duration(entry, range(entry).shortest(), range(entry).min());
  }

  /**
   * A duration from {@code min} (which a message names as {@code minText}) to the declared upper
   * bound.
   */
  private Duration duration(String entry, Duration min, String minText) {
    return duration(entry, min, range(entry).longest(), minText);
  }

  private Duration duration(String entry, Duration min, Duration max, String minText) {
    Object value = value(entry);
    if (value == null) {
      throw missing(entry);
    }
    Duration duration;
    try {
      duration =
          value instanceof Number number
              ? Duration.ofSeconds(number.longValue())
              : Duration.parse(value.toString().trim());
    } catch (DateTimeParseException e) {
      throw new InvalidSettingException(
          entry, "is not an ISO-8601 duration such as PT24H or P90D: '" + value + "'");
    }
    if (duration.compareTo(min) < 0) {
      throw new InvalidSettingException(entry, "must be at least " + minText + " (" + min + ")");
    }
    if (duration.compareTo(max) > 0) {
      throw new InvalidSettingException(entry, "must be at most " + max);
    }
    return duration;
  }

  private static SecretKey aesKey(Secret secret) {
    byte[] bytes = base64(secret);
    if (bytes.length != 32) {
      throw secret.invalid(
          "must be 256 bits (32 bytes, base64), not " + bytes.length * 8 + " bits");
    }
    return new SecretKeySpec(bytes, "AES");
  }

  private static SecretKey hmacKey(Secret secret) {
    byte[] bytes = base64(secret);
    if (bytes.length < 32) {
      throw secret.invalid(
          "must be at least 256 bits (32 bytes, base64), not " + bytes.length * 8 + " bits");
    }
    return new SecretKeySpec(bytes, "HmacSHA256");
  }

  private static byte[] base64(Secret secret) {
    String text = secret.text();
    try {
      return text.contains("-") || text.contains("_")
          ? Base64.getUrlDecoder().decode(text)
          : Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw secret.invalid("is not base64");
    }
  }

  /**
   * A secret's text and where it came from. Errors about it name the entry (and the file) and never
   * show the text.
   */
  private record Secret(String text, String entry, String about) {
    InvalidSettingException invalid(String problem) {
      return new InvalidSettingException(entry, about + problem);
    }

    @Override
    public String toString() {
      return "Secret[entry=" + entry + ", text=(hidden)]";
    }
  }

  private Secret requiredSecret(String entry, String fileEntry) {
    return secret(entry, fileEntry)
        .orElseThrow(
            () ->
                new InvalidSettingException(
                    entry, "is not set, nor is its file form " + name(fileEntry)));
  }

  /** The value of {@code entry}, or the content of the file {@code fileEntry} names; not both. */
  private Optional<Secret> secret(String entry, String fileEntry) {
    Optional<String> text = optional(entry);
    Optional<String> path = optional(fileEntry);
    if (text.isPresent() && path.isPresent()) {
      throw new InvalidSettingException(
          entry,
          "and "
              + name(fileEntry)
              + " are both set; set only one (production: the file, and the other empty)");
    }
    if (path.isEmpty()) {
      return text.map(value -> new Secret(value, entry, ""));
    }
    SecretFile file = new SecretFile(fileEntry, path(fileEntry, path.get()));
    return Optional.of(new Secret(file.read(), fileEntry, file.about()));
  }

  /** Absolute only: a relative path would depend on the server's working directory. */
  private static Path path(String entry, String text) {
    Path path;
    try {
      path = Path.of(text);
    } catch (InvalidPathException e) {
      throw new InvalidSettingException(entry, "is not a file path: " + e.getReason());
    }
    if (!path.isAbsolute()) {
      throw new InvalidSettingException(
          entry,
          "is "
              + text
              + ", a relative path, which would depend on the server's working directory;"
              + " give an absolute one");
    }
    return path;
  }

  /** Empty: the generated administrator's secret goes to the log; else the file it goes to. */
  private Optional<Path> bootstrapSecretFile() {
    String output = required(BOOTSTRAP_SECRET_OUTPUT);
    Optional<String> file = optional(BOOTSTRAP_SECRET_FILE);
    switch (output.toLowerCase(Locale.ROOT)) {
      case "log" -> {
        if (file.isPresent()) {
          throw new InvalidSettingException(
              BOOTSTRAP_SECRET_FILE,
              "is set, but "
                  + name(BOOTSTRAP_SECRET_OUTPUT)
                  + " is 'log'; set that to 'file', or leave this empty");
        }
        return Optional.empty();
      }
      case "file" -> {
        Path path =
            path(
                BOOTSTRAP_SECRET_FILE,
                file.orElseThrow(
                    () ->
                        new InvalidSettingException(
                            BOOTSTRAP_SECRET_FILE,
                            "must be set when " + name(BOOTSTRAP_SECRET_OUTPUT) + " is 'file'")));
        return Optional.of(writableTarget(path));
      }
      default ->
          throw new InvalidSettingException(
              BOOTSTRAP_SECRET_OUTPUT, "must be 'log' or 'file', not '" + output + "'");
    }
  }

  /** Checked now, so a wrong path fails the start before an administrator is generated. */
  private static Path writableTarget(Path file) {
    Path absolute = file.toAbsolutePath();
    Path folder = absolute.getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      throw new InvalidSettingException(
          BOOTSTRAP_SECRET_FILE,
          "names " + file + ", whose folder does not exist; create it (owner-only: chmod 700)");
    }
    if (Files.isDirectory(absolute)) {
      throw new InvalidSettingException(
          BOOTSTRAP_SECRET_FILE, "names " + file + ", which is a folder; name a file in it");
    }
    checkPrivateFolder(file, folder);
    return absolute;
  }

  /**
   * Whoever may write the folder may delete or swap the staged file while the secret is written:
   * the folder must be the server's user's, writable by nobody else.
   */
  private static void checkPrivateFolder(Path file, Path folder) {
    Optional<String> problem;
    try {
      problem = ServerUser.notOwned(folder, "whose folder " + folder);
      if (problem.isEmpty()) {
        problem = ServerUser.writableByOthers(folder);
      }
    } catch (IOException e) {
      throw new InvalidSettingException(
          BOOTSTRAP_SECRET_FILE, "names " + file + ", whose folder cannot be examined (" + e + ")");
    }
    problem.ifPresent(
        why -> {
          throw new InvalidSettingException(BOOTSTRAP_SECRET_FILE, "names " + file + ", " + why);
        });
  }

  private Optional<BootstrapAccount> bootstrap() {
    Optional<String> id = optional(BOOTSTRAP_CLIENT_ID);
    Optional<Secret> secret = secret(BOOTSTRAP_CLIENT_SECRET, BOOTSTRAP_CLIENT_SECRET_FILE);
    if (id.isEmpty() && secret.isEmpty()) {
      return Optional.empty();
    }
    if (id.isEmpty()) {
      throw new InvalidSettingException(
          BOOTSTRAP_CLIENT_ID, "must be set when " + BOOTSTRAP_CLIENT_SECRET + " is set");
    }
    if (secret.isEmpty()) {
      throw new InvalidSettingException(
          BOOTSTRAP_CLIENT_SECRET, "must be set when " + BOOTSTRAP_CLIENT_ID + " is set");
    }
    UUID clientId;
    try {
      clientId = UUID.fromString(id.get());
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(BOOTSTRAP_CLIENT_ID, "is not a UUID");
    }
    if (secret.get().text().length() < MIN_BOOTSTRAP_SECRET) {
      throw secret.get().invalid("must be at least " + MIN_BOOTSTRAP_SECRET + " characters");
    }
    return Optional.of(new BootstrapAccount(clientId, secret.get().text()));
  }

  private String organization(String entry) {
    String text = required(entry);
    if (!ORGANIZATION.matcher(text).matches()) {
      throw new InvalidSettingException(
          entry, "must be 1 to 64 letters, digits, '.', '_' or '-': '" + text + "'");
    }
    return text;
  }

  private int keySize() {
    String text = required(SIGNING_KEY_SIZE);
    int bits;
    try {
      bits = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(SIGNING_KEY_SIZE, "is not a whole number: '" + text + "'");
    }
    Setting.Range range = range(SIGNING_KEY_SIZE);
    if (bits < range.least() || bits > range.most() || bits % 8 != 0) {
      throw new InvalidSettingException(
          SIGNING_KEY_SIZE,
          "must be a multiple of 8 from "
              + range.min()
              + " to "
              + range.max()
              + " bits, not "
              + bits);
    }
    return bits;
  }

  private RateLimitStore rateLimitStore() {
    String text = required(RATE_LIMIT_STORE);
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "memory" -> RateLimitStore.MEMORY;
      case "database" -> RateLimitStore.DATABASE;
      default ->
          throw new InvalidSettingException(
              RATE_LIMIT_STORE, "must be 'memory' or 'database', not '" + text + "'");
    };
  }

  private int tokenRateLimit() {
    String text = required(TOKEN_RATE_LIMIT);
    int perMinute;
    try {
      perMinute = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(TOKEN_RATE_LIMIT, "is not a whole number: '" + text + "'");
    }
    Setting.Range range = range(TOKEN_RATE_LIMIT);
    if (perMinute < range.least() || perMinute > range.most()) {
      throw new InvalidSettingException(
          TOKEN_RATE_LIMIT,
          "must be from " + range.min() + " to " + range.max() + " per minute, not " + perMinute);
    }
    return perMinute;
  }

  /**
   * At least 3: the current key, an operator's new one and the schedule's next; at most 100, which
   * keeps the list far below a verifier's usual 64 KiB cap (about 450 bytes a 2048-bit key).
   */
  private int maxPublishedKeys() {
    String text = required(MAX_PUBLISHED_KEYS);
    int keys;
    try {
      keys = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(
          MAX_PUBLISHED_KEYS, "is not a whole number: '" + text + "'");
    }
    Setting.Range range = range(MAX_PUBLISHED_KEYS);
    if (keys < range.least() || keys > range.most()) {
      throw new InvalidSettingException(
          MAX_PUBLISHED_KEYS,
          "must be from " + range.min() + " to " + range.max() + ", not " + keys);
    }
    return keys;
  }

  /**
   * At least 1; unset, the declared default, which leaves two of the launcher's default eight
   * threads to other addresses.
   */
  private int requestThreadsPerAddress() {
    String text = required(REQUEST_THREADS_PER_ADDRESS);
    Setting.Range range = range(REQUEST_THREADS_PER_ADDRESS);
    try {
      int threads = Integer.parseInt(text.strip());
      if (threads >= range.least() && threads <= range.most()) {
        return threads;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new InvalidSettingException(
        REQUEST_THREADS_PER_ADDRESS,
        "must be a whole number from "
            + range.min()
            + " to "
            + range.max()
            + ", not '"
            + text
            + "'");
  }

  /** Literal IPv4 or IPv6 addresses, comma- or space-separated; no names (no DNS at start-up). */
  private List<String> trustedProxies() {
    List<String> proxies =
        optional(TRUSTED_PROXIES).map(text -> List.of(text.split("[,\\s]+"))).orElse(List.of());
    for (String proxy : proxies) {
      if (!IP_LITERAL.matcher(proxy).matches()) {
        throw notAnAddress(proxy);
      }
    }
    return proxies.stream().map(JndiSettings::inContainerForm).toList();
  }

  /**
   * An IPv6 literal as Tomcat and Payara give a connection's address ({@code ::1} is {@code
   * 0:0:0:0:0:0:0:1}, the JDK's form), so that it matches; IPv4 as written. A text with a colon
   * that starts with a hex digit or a colon is parsed by {@link InetAddress}, never looked up.
   */
  private static String inContainerForm(String literal) {
    if (literal.indexOf(':') < 0) {
      return literal;
    }
    try {
      return InetAddress.getByName(literal).getHostAddress();
    } catch (UnknownHostException e) {
      throw notAnAddress(literal);
    }
  }

  private static InvalidSettingException notAnAddress(String proxy) {
    return new InvalidSettingException(
        TRUSTED_PROXIES, "must list IP addresses, not '" + proxy + "'");
  }

  private Settings.RsaEngine rsaEngine() {
    String text = required(RSA_PROVIDER);
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "accp" -> Settings.RsaEngine.ACCP;
      case "jdk" -> Settings.RsaEngine.JDK;
      default ->
          throw new InvalidSettingException(
              RSA_PROVIDER, "must be 'accp' or 'jdk', not '" + text + "'");
    };
  }

  private Settings.MetricsAccess metricsAccess() {
    String text = required(METRICS_ACCESS);
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "token" -> Settings.MetricsAccess.TOKEN;
      case "open" -> Settings.MetricsAccess.OPEN;
      case "off" -> Settings.MetricsAccess.OFF;
      default ->
          throw new InvalidSettingException(
              METRICS_ACCESS, "must be 'token', 'open' or 'off', not '" + text + "'");
    };
  }

  private String required(String entry) {
    return optional(entry).orElseThrow(() -> missing(entry));
  }

  private Optional<String> optional(String entry) {
    Object value = value(entry);
    return value == null || value.toString().isBlank()
        ? Optional.empty()
        : Optional.of(value.toString().trim());
  }

  /**
   * The entry's value: a global name's where one is bound, else {@code java:comp/env}'s; unbound or
   * blank, its declared default where {@link Setting} has one. A global name overrides the WAR's
   * own default; given at two places with different values, the setting is refused rather than one
   * silently chosen. A value in {@code java:comp/env} that is the declared default counts as the
   * WAR's own, since the two cannot be told apart.
   */
  private Object value(String entry) {
    Setting setting = Setting.of(entry);
    String ownName = "java:comp/env/" + entry;
    Object own = read(entry, ownName, () -> lookup.apply(entry));
    String givenAt =
        isBlank(own) || own.toString().trim().equals(setting.byDefault()) ? null : ownName;
    Object value = own;
    for (String name : globalNames(entry)) {
      Object found = read(entry, name, () -> global.apply(name));
      if (isBlank(found)) {
        continue;
      }
      if (givenAt != null && !found.toString().trim().equals(value.toString().trim())) {
        InvalidSettingException twice =
            new InvalidSettingException(
                entry,
                "and "
                    + name
                    + " are both set, to different values; give the setting at one of them");
        throw givenAt.equals(ownName) ? twice : twice.givenAt(givenAt);
      }
      givenAt = name;
      value = found;
      givenGlobally.put(entry, name);
    }
    if (value instanceof String text) {
      refuseUnresolvedPlaceholder(entry, text.trim());
    }
    if (isBlank(value)) {
      return setting.whenUnset().map(Object.class::cast).orElse(value);
    }
    return value;
  }

  /** Where the entry's value was given, for messages that point at another entry. */
  private String name(String entry) {
    return givenGlobally.getOrDefault(entry, "java:comp/env/" + entry);
  }

  private static boolean isBlank(Object value) {
    return value == null || value.toString().isBlank();
  }

  /** The value bound at {@code name}; a failed lookup stops the start, naming it. */
  private static Object read(String entry, String name, Supplier<Object> lookup) {
    try {
      return lookup.get();
    } catch (RuntimeException e) {
      InvalidSettingException failed =
          new InvalidSettingException(entry, "cannot be read: " + e.getMessage());
      throw name.equals("java:comp/env/" + entry) ? failed : failed.givenAt(name);
    }
  }

  /**
   * A value that starts with {@code ${...}} is the container's placeholder left as it was: say so,
   * rather than "is not base64". Only the placeholder is shown, never the rest of the value; for a
   * secret entry not even that (the "placeholder" may be the secret), nor a name that could carry
   * line breaks or markup into the log.
   */
  private static void refuseUnresolvedPlaceholder(String entry, String text) {
    Matcher placeholder = PLACEHOLDER.matcher(text);
    if (!placeholder.lookingAt()) {
      return;
    }
    if (Setting.of(entry).secret()) {
      throw new InvalidSettingException(
          entry, "looks like an unresolved ${...} placeholder; set the property it names");
    }
    String name = placeholder.group(1);
    if (!PLACEHOLDER_NAME.matcher(name).matches()) {
      throw new InvalidSettingException(entry, "looks like an unresolved ${...} placeholder");
    }
    String missing =
        name.startsWith("ENV=")
            ? "no environment variable " + name.substring(4) + " is set"
            : "no system property " + name + " is set";
    boolean whole = placeholder.end() == text.length();
    throw new InvalidSettingException(
        entry,
        (whole ? "is '" : "starts with '")
            + placeholder.group()
            + "', an unresolved placeholder: "
            + missing);
  }

  private static InvalidSettingException missing(String entry) {
    return new InvalidSettingException(entry, "is not set");
  }

  private static Object lookupInEnvironment(String name) {
    try {
      return new InitialContext().lookup("java:comp/env/" + name);
    } catch (NamingException e) {
      if (isNotBound(e)) {
        return null;
      }
      throw new IllegalStateException(e.getExplanation(), e);
    }
  }

  /** A global name's value; null where the server binds nothing there or has no such space. */
  private static Object lookupGlobal(String name) {
    try {
      return new InitialContext().lookup(name);
    } catch (NamingException e) {
      if (isNotBound(e)) {
        return null;
      }
      throw new IllegalStateException(e.getExplanation(), e);
    }
  }

  /**
   * Whether a failed lookup means the name is not bound. Tomcat throws {@link
   * NameNotFoundException}; Payara wraps it in a plain {@link NamingException} ("Lookup failed for
   * ..."), and binds no name for an {@code <env-entry>} whose value is empty.
   */
  static boolean isNotBound(NamingException failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof NameNotFoundException) {
        return true;
      }
    }
    return false;
  }
}
