package dev.platform.identity.config;

import java.util.HashMap;
import java.util.Map;

/** Settings for tests: the web.xml defaults plus the two secrets every deployment sets. */
public final class TestSettings {
  public static final String KEK = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
  public static final String PEPPER = "ZXhhbXBsZS1wZXBwZXItZm9yLXRlc3RzLW9ubHktMzJieXRlcw==";

  private TestSettings() {}

  /** The entries by name relative to {@code java:comp/env}; a new map the caller may change. */
  public static Map<String, Object> entries() {
    Map<String, Object> entries = new HashMap<>();
    entries.put(JndiSettings.ISSUER, "https://identity.example.com");
    entries.put(JndiSettings.TOKEN_LIFETIME, "PT24H");
    entries.put(JndiSettings.KEY_ENCRYPTION_KEY, KEK);
    entries.put(JndiSettings.SECRET_PEPPER, PEPPER);
    entries.put(JndiSettings.BOOTSTRAP_ORGANIZATION, "root");
    entries.put(JndiSettings.SIGNING_KEY_SIZE, "2048");
    entries.put(JndiSettings.KEY_ROTATION_INTERVAL, "P90D");
    entries.put(JndiSettings.KEY_PRE_PUBLICATION, "PT24H");
    entries.put(JndiSettings.KEY_RETENTION, "PT25H");
    entries.put(JndiSettings.KEY_RING_REFRESH, "PT30S");
    entries.put(JndiSettings.RATE_LIMIT_STORE, "memory");
    entries.put(JndiSettings.RSA_PROVIDER, "accp");
    entries.put(JndiSettings.METRICS_ACCESS, "token");
    entries.put(JndiSettings.TOKEN_RATE_LIMIT, "60");
    entries.put(JndiSettings.MAX_PUBLISHED_KEYS, "10");
    entries.put(JndiSettings.BOOTSTRAP_SECRET_OUTPUT, "log");
    return entries;
  }

  /** The settings of {@link #entries()} with {@code overrides} replacing or adding entries. */
  public static Settings with(Map<String, ?> overrides) {
    Map<String, Object> entries = entries();
    entries.putAll(overrides);
    return JndiSettings.read(entries::get);
  }
}
