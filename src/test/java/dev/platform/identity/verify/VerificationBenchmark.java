package dev.platform.identity.verify;

import io.jsonwebtoken.Jwts;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.Optional;

/**
 * Prints verifications per second on one thread with a warm key cache, beside raw JCA RS256
 * verification of the same token's signature, in one run (docs/libraries.md). Not a test: run it
 * with the command in the README.
 */
public final class VerificationBenchmark {
  private static final long SECONDS = 5;

  private VerificationBenchmark() {}

  public static void main(String[] args) throws Exception {
    KeyPair pair = TestTokens.rsaKeyPair();
    Clock clock = Clock.systemUTC();
    String token =
        Jwts.builder()
            .header()
            .keyId("k1")
            .type("JWT")
            .and()
            .issuer("https://identity.example.test")
            .subject("3f2b8c1e-9a4d-4e5f-8b6a-7c9d0e1f2a3b")
            .claim("client_id", "3f2b8c1e-9a4d-4e5f-8b6a-7c9d0e1f2a3b")
            .claim("scopes", List.of("catalog:*"))
            .issuedAt(new Date())
            .expiration(new Date(System.currentTimeMillis() + 3_600_000))
            .signWith(pair.getPrivate(), Jwts.SIG.RS256)
            .compact();
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer("https://identity.example.test")
            .keyLocator(kid -> Optional.of(pair.getPublic()))
            .clock(clock)
            .build();
    List<String> required = List.of("catalog:products.view");
    String header = "Bearer " + token;

    int lastDot = token.lastIndexOf('.');
    byte[] signed = token.substring(0, lastDot).getBytes(StandardCharsets.US_ASCII);
    byte[] signature = java.util.Base64.getUrlDecoder().decode(token.substring(lastDot + 1));

    rate("warm-up BearerVerifier", () -> verifier.verify(header, required));
    double full =
        rate("BearerVerifier.verify (warm key cache)", () -> verifier.verify(header, required));
    rate(
        "warm-up JCA",
        () -> {
          verifyRaw(pair, signed, signature);
        });
    double raw = rate("raw JCA SHA256withRSA verify", () -> verifyRaw(pair, signed, signature));
    System.out.printf("BearerVerifier / raw JCA: %.2f%n", full / raw);
  }

  private static void verifyRaw(KeyPair pair, byte[] signed, byte[] signature) {
    try {
      Signature jca = Signature.getInstance("SHA256withRSA");
      jca.initVerify(pair.getPublic());
      jca.update(signed);
      if (!jca.verify(signature)) {
        throw new IllegalStateException("signature did not verify");
      }
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static double rate(String name, Runnable work) {
    long end = System.nanoTime() + SECONDS * 1_000_000_000L;
    long count = 0;
    long start = System.nanoTime();
    while (System.nanoTime() < end) {
      work.run();
      count++;
    }
    double perSecond = count / ((System.nanoTime() - start) / 1e9);
    if (!name.startsWith("warm-up")) {
      System.out.printf("%-40s %,10.0f per second on one thread%n", name, perSecond);
    }
    return perSecond;
  }
}
