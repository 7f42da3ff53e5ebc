package dev.platform.identity.verify;

import io.jsonwebtoken.JwtBuilder;
import io.jsonwebtoken.Jwts;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Tokens as the issuer makes them (SPEC 2.5), as builders a test changes before signing. Public for
 * the tests of the filters in {@code verify.servlet} and {@code verify.jaxrs}.
 */
public final class TestTokens {
  public static final String ISSUER = "https://identity.example.test";
  public static final String KID = "key-2025-03";
  public static final String CLIENT_ID = "3f2b8c1e-9a4d-4e5f-8b6a-7c9d0e1f2a3b";
  public static final String TOKEN_ID = "9b1c2d3e-4f5a-4b6c-8d7e-0f1a2b3c4d5e";
  public static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
  public static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  public static final Instant ISSUED_AT = NOW.minus(Duration.ofMinutes(10));
  public static final Instant EXPIRES_AT = ISSUED_AT.plus(Duration.ofHours(24));
  public static final List<String> SCOPES = List.of("catalog:products.view", "marketing:*");

  /** What follows the Bearer challenge of a filter, which takes DPoP too (RFC 9449 §7.1). */
  public static final String DPOP_CHALLENGE = ", DPoP algs=\"ES256 RS256 PS256\"";

  /** A header as the issuer writes it, for tokens written by hand. */
  public static final String HEADER_JSON =
      "{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"typ\":\"JWT\"}";

  /**
   * The members of a small claims object valid at {@link #NOW} (exp an hour later,
   * 2025-03-01T13:00:00Z), without braces, so a test can add to them.
   */
  public static final String CLAIMS_JSON =
      "\"iss\":\""
          + ISSUER
          + "\",\"client_id\":\""
          + CLIENT_ID
          + "\",\"exp\":1740834000,\"scopes\":[\"catalog:*\"]";

  private TestTokens() {}

  /** A 2048-bit RSA pair; slow (tens of ms), so a test class makes its pairs once. */
  /** A key set of one RS256 key, as {@code /api/public-keys} serves it. */
  public static String jwkSet(String kid, KeyPair pair) {
    return RemotePublicKeysTest.set(RemotePublicKeysTest.jwk(kid, pair));
  }

  /**
   * A stub issuer on 127.0.0.1 serving {@code pair}'s key as {@code kid} while {@code status} says
   * 200, and that status with the same body once the test sets another: an issuer that starts
   * failing.
   */
  public static StubServer issuer(String kid, KeyPair pair, java.util.function.IntSupplier status)
      throws java.io.IOException {
    String keySet = jwkSet(kid, pair);
    return StubServer.start(
        "/api/public-keys",
        request -> new StubServer.Reply(status.getAsInt(), java.util.Map.of(), keySet));
  }

  public static KeyPair rsaKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A service-account token of {@link #ISSUER}, key {@link #KID}, valid at {@link #NOW}. */
  public static JwtBuilder serviceAccount() {
    return Jwts.builder()
        .header()
        .keyId(KID)
        .type("JWT")
        .and()
        .issuer(ISSUER)
        .audience()
        .single("*")
        .subject(CLIENT_ID)
        .id(TOKEN_ID)
        .issuedAt(Date.from(ISSUED_AT))
        .notBefore(Date.from(ISSUED_AT))
        .expiration(Date.from(EXPIRES_AT))
        .claim("token_type", "service_account")
        .claim("client_id", CLIENT_ID)
        .claim("service_name", "catalog")
        .claim("scopes", SCOPES)
        .claim("permissions", SCOPES)
        .claim("organization_id", "org-a")
        .claim("accessible_orgs", List.of("org-a", "org-b"))
        .claim("version", 1)
        .claim(
            "channel_permissions",
            Map.of(
                "subscribe", List.of("catalog.products.*", "marketing.*"),
                "publish", List.of("marketing.*"),
                "replay", List.of("catalog.products.*", "marketing.*")));
  }

  /**
   * {@code token} bound to {@code certificate} (RFC 8705 §3.1): {@code "cnf": {"x5t#S256":
   * thumbprint}}.
   */
  public static JwtBuilder boundTo(JwtBuilder token, X509Certificate certificate) {
    return token.claim("cnf", Map.of("x5t#S256", CertificateThumbprint.of(certificate)));
  }

  /** {@code token} signed RS256 with {@code key}. */
  public static String signed(JwtBuilder token, PrivateKey key) {
    return token.signWith(key, Jwts.SIG.RS256).compact();
  }

  /** {@code header} and {@code payload}, byte for byte, signed RS256 with {@code key}. */
  public static String signedBytes(byte[] header, byte[] payload, PrivateKey key) {
    Base64.Encoder base64url = Base64.getUrlEncoder().withoutPadding();
    String input = base64url.encodeToString(header) + "." + base64url.encodeToString(payload);
    try {
      Signature rsa = Signature.getInstance("SHA256withRSA");
      rsa.initSign(key);
      rsa.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + base64url.encodeToString(rsa.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static Date secondsFromNow(long seconds) {
    return Date.from(NOW.plusSeconds(seconds));
  }
}
