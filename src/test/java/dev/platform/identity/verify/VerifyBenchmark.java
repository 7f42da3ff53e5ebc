package dev.platform.identity.verify;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.platform.identity.tls.TestPki;
import io.jsonwebtoken.Claims;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.Jwts;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Issue 23's proof (bench/verify.sh runs it): on the same token, in one run, raw RS256 verification
 * through the JDK's provider and through ACCP, {@code BearerVerifier} cold (cache off) with each,
 * {@code BearerVerifier} on a cache hit, without and with a revocation feed (issue 38: 10,000
 * revoked jtis and 1,000 revoked accounts, the token's own account among them with a {@code
 * not_before} before its {@code iat}, so a hit does both lookups and passes), on a cache hit of a
 * certificate-bound token with its certificate (issue 39: the same certificate object each call, as
 * a container keeps a connection's, and a new object of the same certificate each call, so every
 * call hashes it), Nimbus's {@code DefaultJWTProcessor} with a {@code JWKSource}, and JJWT's
 * parser. Every benchmark returns what it verified, so nothing is optimised away, and fails loudly
 * if a token does not verify. Not a test.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class VerifyBenchmark {
  static final String ISSUER = "https://identity.example.test";
  static final String KID = "key-2025-03";
  static final List<String> REQUIRED = List.of("catalog:products.view");

  /** One key pair, one token as the issuer makes them, and the verifiers, shared by all threads. */
  @State(Scope.Benchmark)
  public static class Tokens {
    KeyPair keys;
    String token;
    String header;
    String boundHeader;
    X509Certificate certificate;
    X509Certificate sameCertificate;
    byte[] signingInput;
    byte[] signature;
    Provider accp;
    PublicKey accpKey;
    BearerVerifier coldJdk;
    BearerVerifier coldAccp;
    BearerVerifier cached;
    BearerVerifier cachedRevocations;
    StubServer feedServer;
    RevocationFeed feed;
    String subjectHash;
    long issuedAt;
    long nowMillis;
    DefaultJWTProcessor<SecurityContext> nimbus;
    JwtParser jjwt;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
      keys = TestTokens.rsaKeyPair();
      long now = System.currentTimeMillis();
      token =
          TestTokens.signed(
              TestTokens.serviceAccount()
                  .issuedAt(new Date(now))
                  .notBefore(new Date(now))
                  .expiration(new Date(now + 3_600_000)),
              keys.getPrivate());
      header = "Bearer " + token;
      certificate = TestPki.authority("Bench CA").client("CN=orders,O=Bench").certificate();
      // Another object of the same certificate. Not the JDK's factory: it caches certificates by
      // their encoding and would give back the very object, so nothing would be hashed again.
      sameCertificate =
          (X509Certificate)
              CertificateFactory.getInstance(
                      "X.509", new org.bouncycastle.jce.provider.BouncyCastleProvider())
                  .generateCertificate(new ByteArrayInputStream(certificate.getEncoded()));
      if (sameCertificate == certificate || !sameCertificate.equals(certificate)) {
        throw new IllegalStateException("not another object of the same certificate");
      }
      boundHeader =
          "Bearer "
              + TestTokens.signed(
                  TestTokens.boundTo(
                      TestTokens.serviceAccount()
                          .issuedAt(new Date(now))
                          .notBefore(new Date(now))
                          .expiration(new Date(now + 3_600_000)),
                      certificate),
                  keys.getPrivate());
      int dot = token.lastIndexOf('.');
      signingInput = token.substring(0, dot).getBytes(StandardCharsets.US_ASCII);
      signature = Base64.getUrlDecoder().decode(token.substring(dot + 1));
      Provider jdk = Security.getProvider("SunRsaSign");
      accp = dev.platform.identity.jose.Providers.rsa();
      if (accp == jdk) {
        throw new IllegalStateException("ACCP does not load here: the run would compare nothing");
      }
      accpKey = (PublicKey) KeyFactory.getInstance("RSA", accp).translateKey(keys.getPublic());
      coldJdk = verifier().cache(false).provider(jdk).build();
      coldAccp = verifier().cache(false).provider(accp).build();
      cached = verifier().build();
      check(cached.verify(boundHeader, certificate, REQUIRED).clientId());
      feedServer = StubServer.start("/oauth/revocations", request -> feedReply(now));
      feed =
          RevocationFeed.builder()
              .issuer(URI.create(ISSUER))
              .feedUri(URI.create(feedServer.uri() + "/oauth/revocations"))
              .refreshInterval(java.time.Duration.ofSeconds(2))
              .build();
      if (feed.size() != 11_000) {
        throw new IllegalStateException("the revocation feed was not read: " + feed.size());
      }
      cachedRevocations = verifier().revocations(feed).build();
      subjectHash = RevocationList.subjectHash(TestTokens.CLIENT_ID);
      issuedAt = now / 1000;
      nowMillis = now;
      check(cachedRevocations.verify(header, REQUIRED).clientId());
      nimbus = new DefaultJWTProcessor<>();
      RSAKey jwk = new RSAKey.Builder((RSAPublicKey) keys.getPublic()).keyID(KID).build();
      nimbus.setJWSKeySelector(
          new JWSVerificationKeySelector<>(
              JWSAlgorithm.RS256, new ImmutableJWKSet<>(new JWKSet(jwk))));
      jjwt = Jwts.parser().verifyWith(keys.getPublic()).requireIssuer(ISSUER).build();
      check(coldJdk.verify(header, REQUIRED).clientId());
    }

    /** 10,000 revoked jtis and 1,000 accounts, the token's with a not_before an hour before it. */
    private static StubServer.Reply feedReply(long now) {
      StringBuilder json = new StringBuilder("{\"issuer\":\"" + ISSUER + "\",\"tokens\":[");
      long exp = now / 1000 + 3600;
      for (int i = 0; i < 10_000; i++) {
        json.append(i == 0 ? "" : ",").append("{\"jti\":\"").append(java.util.UUID.randomUUID());
        json.append("\",\"exp\":").append(exp).append('}');
      }
      List<String> accounts = new ArrayList<>();
      for (int i = 0; i < 999; i++) {
        accounts.add(java.util.UUID.randomUUID().toString());
      }
      accounts.add(TestTokens.CLIENT_ID);
      json.append("],\"accounts\":[");
      for (int i = 0; i < accounts.size(); i++) {
        json.append(i == 0 ? "" : ",").append("{\"sub_sha256\":\"");
        json.append(RevocationList.subjectHash(accounts.get(i))).append("\",\"not_before\":");
        json.append(now / 1000 - 3600).append(",\"until\":").append(exp).append('}');
      }
      return new StubServer.Reply(200, Map.of("ETag", "\"bench\""), json.append("]}").toString());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      feed.close();
      feedServer.close();
    }

    private BearerVerifier.Builder verifier() {
      return BearerVerifier.builder()
          .issuer(ISSUER)
          .keyLocator(kid -> KID.equals(kid) ? Optional.of(keys.getPublic()) : Optional.empty());
    }
  }

  /** A signature engine of each provider per thread, as a careful caller keeps them. */
  @State(Scope.Thread)
  public static class Engines {
    Signature jdk;
    Signature accp;

    @Setup(Level.Trial)
    public void setUp(Tokens tokens) throws Exception {
      jdk = Signature.getInstance("SHA256withRSA", Security.getProvider("SunRsaSign"));
      accp = Signature.getInstance("SHA256withRSA", tokens.accp);
    }
  }

  @Benchmark
  public boolean rawJdk(Tokens tokens, Engines engines) throws Exception {
    return raw(engines.jdk, tokens.keys.getPublic(), tokens);
  }

  @Benchmark
  public boolean rawAccp(Tokens tokens, Engines engines) throws Exception {
    return raw(engines.accp, tokens.accpKey, tokens);
  }

  private static boolean raw(Signature engine, PublicKey key, Tokens tokens) throws Exception {
    engine.initVerify(key);
    engine.update(tokens.signingInput);
    if (!engine.verify(tokens.signature)) {
      throw new IllegalStateException("the signature did not verify");
    }
    return true;
  }

  @Benchmark
  public VerifiedToken coldJdk(Tokens tokens) {
    return tokens.coldJdk.verify(tokens.header, REQUIRED);
  }

  @Benchmark
  public VerifiedToken coldAccp(Tokens tokens) {
    return tokens.coldAccp.verify(tokens.header, REQUIRED);
  }

  /** A fresh header string each call, as a request brings: its token's hash is not cached. */
  @Benchmark
  public VerifiedToken hit(Tokens tokens) {
    return tokens.cached.verify(new String(tokens.header), REQUIRED);
  }

  /**
   * A hit of a certificate-bound token with its certificate, the same object each call: the binding
   * check compares the remembered digest.
   */
  @Benchmark
  public VerifiedToken hitBound(Tokens tokens) {
    return tokens.cached.verify(new String(tokens.boundHeader), tokens.certificate, REQUIRED);
  }

  /** Which of two objects of the one certificate this thread presents next. */
  @State(Scope.Thread)
  public static class Presenter {
    boolean other;
  }

  /**
   * The same, with a new object of the certificate each call (as a proxy's header parsed per
   * request gives): each call hashes the certificate's DER.
   */
  @Benchmark
  public VerifiedToken hitBoundRehash(Tokens tokens, Presenter presenter) {
    presenter.other = !presenter.other;
    X509Certificate presented = presenter.other ? tokens.sameCertificate : tokens.certificate;
    return tokens.cached.verify(new String(tokens.boundHeader), presented, REQUIRED);
  }

  /** The same, with the revocation feed checked on the hit. */
  @Benchmark
  public VerifiedToken hitRevocations(Tokens tokens) {
    return tokens.cachedRevocations.verify(new String(tokens.header), REQUIRED);
  }

  /**
   * The revocation check alone, as a hit makes it with what the cache holds: what {@code
   * hitRevocations} adds to {@code hit}, measured where the shared cores' noise cannot drown it.
   */
  @Benchmark
  public String revocationCheck(Tokens tokens) {
    tokens.feed.check(TestTokens.TOKEN_ID, tokens.subjectHash, tokens.issuedAt, tokens.nowMillis);
    return tokens.subjectHash;
  }

  @Benchmark
  public JWTClaimsSet nimbus(Tokens tokens) throws Exception {
    JWTClaimsSet claims = tokens.nimbus.process(tokens.token, null);
    check(claims.getStringClaim("client_id"));
    return claims;
  }

  @Benchmark
  public Claims jjwt(Tokens tokens) {
    Claims claims = tokens.jjwt.parseSignedClaims(tokens.token).getPayload();
    check((String) ((Map<?, ?>) claims).get("client_id"));
    return claims;
  }

  private static void check(String clientId) {
    if (!TestTokens.CLIENT_ID.equals(clientId)) {
      throw new IllegalStateException("the token did not verify as expected");
    }
  }
}
