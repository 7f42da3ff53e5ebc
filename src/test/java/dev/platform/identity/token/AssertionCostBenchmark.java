package dev.platform.identity.token;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.FreshPostgres;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.RsaProvider;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ScopeCatalog;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Issues 22 and 40: what a private_key_jwt client, and a DPoP proof, cost the token path beside a
 * secret client, in tokens per CPU-second of this process. Issues tokens in process through {@code
 * TokenServlet.answer} for a client_secret_post client, an RS256 assertion client and an ES256 one,
 * and for the secret client with an ES256 and an RS256 DPoP proof (made by the Nimbus SDK's {@code
 * DefaultDPoPProofFactory}); assertions and proofs are signed before the clock starts (a client's
 * own cost is not the server's). A proof's jti is an INSERT, as an assertion's is. On H2 in memory,
 * and with {@code --postgres} also on a fresh PostgreSQL database at 127.0.0.1:5432, where each jti
 * is an INSERT over a connection (the database server's own CPU is not in the figure; the wall time
 * per token is printed beside it).
 *
 * <p>Not a test: {@code bench/run.sh} runs it. Arguments: tokens per run (3,000), then {@code
 * --postgres}.
 */
public final class AssertionCostBenchmark {
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final String SECRET = "the-bench-secret-0123456789";

  /** Held, so that its level is not lost with a collected logger. */
  private static final Logger AUDIT = Logger.getLogger(AuditLog.LOGGER);

  private AssertionCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    int tokens = args.length > 0 ? Integer.parseInt(args[0]) : 3_000;
    boolean postgres = List.of(args).contains("--postgres");
    AUDIT.setLevel(Level.OFF);
    run(
        "H2 (in memory)",
        TestDatabases.h2DataSource("assertion-bench-" + UUID.randomUUID()),
        tokens);
    if (postgres) {
      // FreshPostgres reads the server's address from this property, as the -Ppostgres ITs do.
      System.setProperty(
          "identity.postgres.url",
          System.getProperty(
              "identity.postgres.url", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres"));
      try (FreshPostgres database = FreshPostgres.create("identity_assertion_bench");
          org.apache.tomcat.dbcp.dbcp2.BasicDataSource pool =
              new org.apache.tomcat.dbcp.dbcp2.BasicDataSource()) {
        // Pooled, as the servers' DataSource is: a new connection per statement would be the cost.
        pool.setUrl(database.dataSource().getURL());
        pool.setMaxTotal(4);
        run("PostgreSQL (pooled connections)", pool, tokens);
      }
    }
  }

  private static void run(String label, DataSource data, int tokens) throws Exception {
    Settings settings = TestNodes.settings();
    try (TestNodes.Node node = TestNodes.node(data, settings, Clock.systemUTC())) {
      node.rotation().start();
      TokenServlet servlet = endpoint(node, settings, data);
      KeyPair rsa = pair("RSA");
      KeyPair ec = pair("EC");
      String secretBody = secretClient(node, settings);
      UUID signer = keyClient(node, rsa, ec);
      System.out.printf(
          "%s, %d tokens a run, %s%n",
          label, tokens, RsaProvider.choose(settings.keys().engine()).name());
      for (boolean measured : List.of(false, true)) {
        report(measured, "client_secret_post", servlet, requests(repeat(secretBody, tokens)));
        report(
            measured,
            "private_key_jwt RS256",
            servlet,
            requests(assertions(signer, rsa, "r", settings, tokens)));
        report(
            measured,
            "private_key_jwt ES256",
            servlet,
            requests(assertions(signer, ec, "e", settings, tokens)));
        report(
            measured,
            "secret + DPoP ES256",
            servlet,
            withProofs(secretBody, ec, JWSAlgorithm.ES256, settings, tokens));
        report(
            measured,
            "secret + DPoP RS256",
            servlet,
            withProofs(secretBody, rsa, JWSAlgorithm.RS256, settings, tokens));
      }
    }
  }

  private static void report(
      boolean measured, String label, TokenServlet servlet, List<Supplier<TokenRequest>> bodies) {
    var threads = ManagementFactory.getThreadMXBean();
    long cpu = threads.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    for (Supplier<TokenRequest> body : bodies) {
      TokenAnswer answer = servlet.answer(body, "127.0.0.1", FailureBudget.NONE);
      if (answer.status() != 200) {
        throw new IllegalStateException(label + " not issued: " + new String(answer.body()));
      }
    }
    double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpu) / 1e9;
    double wallMicros = (System.nanoTime() - wall) / 1e3 / bodies.size();
    if (measured) {
      System.out.printf(
          "  %-24s %8.0f tokens per CPU-second  %7.1f us wall per token%n",
          label, bodies.size() / cpuSeconds, wallMicros);
    }
  }

  /** The requests of these bodies, each parsed when the endpoint asks, as over HTTP. */
  private static List<Supplier<TokenRequest>> requests(List<String> bodies) {
    return bodies.stream()
        .<Supplier<TokenRequest>>map(body -> () -> TokenRequest.from(body, FORM, null, null))
        .toList();
  }

  /** {@code n} requests of {@code body}, each with a DPoP proof of its own by {@code pair}. */
  private static List<Supplier<TokenRequest>> withProofs(
      String body, KeyPair pair, JWSAlgorithm alg, Settings settings, int n) throws Exception {
    com.nimbusds.jose.jwk.JWK jwk =
        alg == JWSAlgorithm.ES256
            ? new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
                .privateKey(pair.getPrivate())
                .build()
            : new RSAKey.Builder((RSAPublicKey) pair.getPublic())
                .privateKey(pair.getPrivate())
                .build();
    DefaultDPoPProofFactory proofs = new DefaultDPoPProofFactory(jwk, alg);
    URI tokenEndpoint = URI.create(settings.tokens().issuer() + "/oauth/token");
    List<Supplier<TokenRequest>> requests = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<String> proof = List.of(proofs.createDPoPJWT("POST", tokenEndpoint).serialize());
      requests.add(() -> TokenRequest.from(body, FORM, null, null).withDpop(proof));
    }
    return requests;
  }

  private static List<String> repeat(String body, int n) {
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      bodies.add(body);
    }
    return bodies;
  }

  private static List<String> assertions(
      UUID client, KeyPair pair, String kid, Settings settings, int n) throws Exception {
    boolean isEc = kid.equals("e");
    List<String> bodies = new ArrayList<>();
    Instant now = Instant.now();
    for (int i = 0; i < n; i++) {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(isEc ? JWSAlgorithm.ES256 : JWSAlgorithm.RS256)
                  .keyID(kid)
                  .build(),
              new JWTClaimsSet.Builder()
                  .issuer(client.toString())
                  .subject(client.toString())
                  .audience(settings.tokens().issuer() + "/oauth/token")
                  .issueTime(Date.from(now))
                  .expirationTime(Date.from(now.plusSeconds(240)))
                  .jwtID(UUID.randomUUID().toString())
                  .build());
      jwt.sign(
          isEc
              ? new ECDSASigner(pair.getPrivate(), Curve.P_256)
              : new RSASSASigner(pair.getPrivate()));
      bodies.add(
          "grant_type=client_credentials&client_assertion_type="
              + ReceivedAssertion.TYPE
              + "&client_assertion="
              + jwt.serialize());
    }
    return bodies;
  }

  private static KeyPair pair(String algorithm) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
    if (algorithm.equals("EC")) {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } else {
      generator.initialize(2048);
    }
    return generator.generateKeyPair();
  }

  private static String secretClient(TestNodes.Node node, Settings settings) {
    UUID id = UUID.randomUUID();
    new ServiceAccounts(node.database())
        .add(
            ServiceAccount.create(
                id,
                new AccountProfile("bench", "org", List.of(), List.of("catalog:*"), "catalog"),
                new SecretDigest(settings.secrets().pepper()).of(SECRET),
                Clock.systemUTC().instant()));
    return "grant_type=client_credentials&client_id=" + id + "&client_secret=" + SECRET;
  }

  private static UUID keyClient(TestNodes.Node node, KeyPair rsa, KeyPair ec) throws Exception {
    UUID id = UUID.randomUUID();
    String jwks =
        "{\"keys\":["
            + new RSAKey.Builder((RSAPublicKey) rsa.getPublic()).keyID("r").build().toJSONString()
            + ","
            + new ECKey.Builder(Curve.P_256, (ECPublicKey) ec.getPublic())
                .keyID("e")
                .build()
                .toJSONString()
            + "]}";
    new ServiceAccounts(node.database())
        .add(
            ServiceAccount.createWithKeys(
                id,
                new AccountProfile("bench", "org", List.of(), List.of("catalog:*"), "catalog"),
                ServiceAccount.Keys.of(
                    ClientJwks.parse(
                        new com.fasterxml.jackson.databind.ObjectMapper().readTree(jwks))),
                Clock.systemUTC().instant()));
    return id;
  }

  private static TokenServlet endpoint(TestNodes.Node node, Settings settings, DataSource data) {
    ScopeCatalog scopes = new ScopeCatalog(node.database());
    scopes.refresh();
    return TokenEndpoint.build(
        TestEndpoints.policy(settings, Optional.empty()),
        new ServiceAccounts(node.database()),
        new SecretDigest(settings.secrets().pepper()),
        scopes,
        node.ring(),
        new UsedJtis(data),
        TestEndpoints.NONE_PUBLISHED,
        new AuditLog(Clock.systemUTC()),
        TokenMeters.none(),
        Clock.systemUTC());
  }
}
