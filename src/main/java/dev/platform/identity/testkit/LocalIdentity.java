package dev.platform.identity.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.client.TokenClient;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.PublicKeyLocator;
import dev.platform.identity.verify.RemotePublicKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The real identity service, started by the kit for a test: its issuer, a verifier configured for
 * it, accounts and their tokens, tokens it would never mint signed by its own current key, and its
 * key rotation and revocation. Made by {@link IdentityService} (or {@link #start()}), or for the
 * WAR deployed in the test's own container by {@link IdentityDeployment#identity()}; thread-safe.
 *
 * <p>It listens on 127.0.0.1 only and makes new keys at each start, so no token of a test verifies
 * anywhere else (docs/testing-with-identity.md).
 */
public final class LocalIdentity implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  private static LocalIdentity shared;

  private final RunningService process;
  private final AdminCalls admin;
  private final ServiceKeys keys;
  private final Clock clock;
  private final AtomicReference<RemotePublicKeys> publicKeys = new AtomicReference<>();

  LocalIdentity(RunningService process, KitSecrets secrets, Clock clock) throws IOException {
    this.process = process;
    this.clock = clock;
    TokenClient adminClient =
        TokenClient.builder()
            .baseUrl(process.issuer())
            .credentials(secrets.adminId(), secrets.adminSecret())
            .build();
    this.admin = new AdminCalls(process.issuer(), adminClient);
    this.keys =
        new ServiceKeys(process.war(), process.jdbcUrl(), secrets.dbPassword(), secrets.kek());
    renewPublicKeys();
  }

  /** A new service of its own, which the caller closes; forged times follow the system clock. */
  public static LocalIdentity start() {
    return start(Clock.systemUTC());
  }

  /**
   * A new service of its own; forged tokens and {@link #verifier()} take their time from {@code
   * clock}.
   */
  public static LocalIdentity start(Clock clock) {
    KitSecrets secrets = KitSecrets.generate(new SecureRandom());
    ServiceProcess process;
    try {
      process = ServiceProcess.start(secrets);
    } catch (IOException e) {
      throw new UncheckedIOException("the identity service cannot be started", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the identity service started", e);
    }
    try {
      return new LocalIdentity(process, secrets, clock);
    } catch (IOException | RuntimeException e) {
      process.close();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  /**
   * The one service of this JVM, started at the first call and stopped when the JVM ends: what
   * {@code @IdentityService} uses by default, and what code outside a test method (an Arquillian
   * deployment's application) can reach.
   */
  public static synchronized LocalIdentity shared() {
    if (shared == null) {
      LocalIdentity started = start();
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "identity-testkit-stop"));
      shared = started;
    }
    return shared;
  }

  /** The issuer, {@code http://127.0.0.1:PORT}: the {@code iss} of its tokens. */
  public URI issuer() {
    return process.issuer();
  }

  /** The clock of forged tokens and of {@link #verifier()}. */
  public Clock clock() {
    return clock;
  }

  /**
   * The service's public keys, fetched from {@code /api/public-keys} and fetched anew after every
   * {@link #rotateKey()} and {@link #revokeKey(String)}, so that a verifier using them sees the
   * change at once, without waiting for its cache to expire.
   */
  public PublicKeyLocator publicKeys() {
    return kid -> publicKeys.get().find(kid);
  }

  /** A verifier builder for this issuer, with {@link #publicKeys()} and the kit's clock. */
  public BearerVerifier.Builder verifierBuilder() {
    return BearerVerifier.builder()
        .issuer(issuer().toString())
        .keyLocator(publicKeys())
        .clock(clock);
  }

  /** A new verifier for this issuer ({@link #verifierBuilder()}). */
  public BearerVerifier verifier() {
    return verifierBuilder().build();
  }

  /** An account to create, named {@code name}. */
  public TestAccount.Builder account(String name) {
    return new TestAccount.Builder(this, name);
  }

  /** A token the service mints for {@code account} now, with all its scopes. */
  public String token(TestAccount account) {
    return account.tokenClient().token();
  }

  /** A token the service mints for {@code account} now, with {@code scopes} only. */
  public String token(TestAccount account, String... scopes) {
    return account.tokenClient(List.of(scopes)).token();
  }

  /**
   * A forgery starting from a token the service mints for {@code account} now, signed by the
   * service's current key; break one rule with its methods, then {@link Forgery#sign()}.
   */
  public Forgery forge(TestAccount account) {
    String genuine = token(account);
    String kid = kidOf(genuine);
    return Forgery.of(genuine, kid, keys.privateKey(kid), clock, keys::privateKey);
  }

  /** The kid of the key that signs now. */
  public String currentKid() {
    return admin.currentKid();
  }

  /** Rotates at once ({@code POST /admin/v1/signing-keys/rotate?immediate=true}); the new kid. */
  public String rotateKey() {
    String kid = admin.rotateKey();
    renewPublicKeys();
    return kid;
  }

  /** Revokes {@code kid} ({@code POST /admin/v1/signing-keys/{kid}/revoke}). */
  public void revokeKey(String kid) {
    admin.revokeKey(kid);
    renewPublicKeys();
  }

  /**
   * The local addresses of the service process's listening sockets, in {@code /proc/net/tcp}'s hex
   * ({@code 0100007F:1F90} is 127.0.0.1:8080), for a test that checks it listens on loopback only;
   * empty where Linux's {@code /proc} is not. A deployed service's are those of the test's JVM.
   */
  public List<String> listeningAddresses() {
    try {
      return ListeningSockets.of(process.pid());
    } catch (IOException e) {
      return List.of();
    }
  }

  AdminCalls admin() {
    return admin;
  }

  /** Stops the service and deletes its data. */
  @Override
  public void close() {
    try {
      keys.close();
    } catch (IOException e) {
      // Only the WAR's class loader; the process still stops.
    }
    process.close();
  }

  private void renewPublicKeys() {
    publicKeys.set(RemotePublicKeys.builder().issuer(issuer()).clock(clock).build());
  }

  static String kidOf(String token) {
    try {
      byte[] header = Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.')));
      return JSON.readTree(header).get("kid").asText();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a token of the service", e);
    }
  }
}
