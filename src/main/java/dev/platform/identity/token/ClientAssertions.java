package dev.platform.identity.token;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 22: authenticates a client by its {@code client_assertion} (RFC 7523 §3, RFC 7521 §4.2).
 * First what the assertion says of itself, each rule with a description that helps its developer
 * and names nothing but what was sent: the algorithm, {@code iss} and {@code sub}, {@code aud},
 * {@code exp}, {@code nbf}, {@code iat} and {@code jti}. Then the one check that involves an
 * account, whose every failure reads the same, so that a stranger learns nothing of other accounts:
 * the signature, by the account's key that the header's {@code kid} chooses. An unknown client, a
 * secret account, a missing key or a key of another type still costs one signature check, against a
 * decoy key. Last, the account's status and the {@code jti}'s single use.
 */
final class ClientAssertions {
  static final String NOT_SIGNED =
      "the client_assertion is not signed by a key registered for this client_id (or the client"
          + " is unknown)";
  static final String REPLAYED = "the client_assertion's jti was already used";

  /** Issue 22: the most an assertion may live, from its iat (or from now, without one). */
  static final Duration MAX_LIFETIME = Duration.ofMinutes(5);

  /** Issue 22: the clock skew allowed on exp, nbf and iat. */
  static final Duration SKEW = Duration.ofSeconds(60);

  private final ServiceAccounts accounts;
  private final AccountKeys keys;
  private final UsedAssertions used;
  private final Clock clock;
  private final String tokenEndpoint;
  private final String issuer;
  private final ServiceAccount decoy;
  private final Map<String, PublicKey> decoyKeys;

  /**
   * @param issuer the service's issuer; an assertion's {@code aud} must name it or its token
   *     endpoint
   * @param decoy the account read when no account has the client_id
   */
  ClientAssertions(
      ServiceAccounts accounts,
      AccountKeys keys,
      UsedAssertions used,
      Clock clock,
      URI issuer,
      ServiceAccount decoy) {
    this.accounts = accounts;
    this.keys = keys;
    this.used = used;
    this.clock = clock;
    this.issuer = issuer.toString();
    this.tokenEndpoint = this.issuer + "/oauth/token";
    this.decoy = decoy;
    this.decoyKeys = decoyKeys();
  }

  /**
   * The active account the request's assertion proves.
   *
   * @throws OAuthError {@code invalid_client} saying which rule the assertion broke
   */
  ServiceAccount authenticate(TokenRequest request, ClientAssertion assertion) {
    Instant now = clock.instant();
    String alg = algorithm(assertion.header());
    JsonNode claims = assertion.claims();
    Optional<String> iss = ClientAssertion.text(claims, "iss");
    Optional<String> sub = ClientAssertion.text(claims, "sub");
    if (!iss.equals(Optional.of(request.clientId())) || !sub.equals(iss)) {
      throw ClientAssertion.refused(
          "the client_assertion's iss and sub must both be the client_id");
    }
    requireAudience(claims.get("aud"));
    Instant expiry = requireTimes(claims, now);
    String jti =
        ClientAssertion.text(claims, "jti")
            .filter(text -> !text.isEmpty())
            .orElseThrow(() -> ClientAssertion.refused("the client_assertion has no jti"));
    ServiceAccount account = signer(request, assertion, alg);
    if (!account.isActive()) {
      throw ClientAssertion.refused(ClientAuthenticator.REVOKED);
    }
    if (!used.claim(account.clientId(), jti, expiry.plus(SKEW), now)) {
      throw ClientAssertion.refused(REPLAYED);
    }
    return account;
  }

  /** RFC 7518 §3.1: RS256, PS256 or ES256; never none, never a MAC, never an unknown crit. */
  private static String algorithm(JsonNode header) {
    String alg = ClientAssertion.text(header, "alg").orElse("");
    if (!ClientJwks.ALGORITHMS.contains(alg)) {
      // The alg sent is not repeated: the audit keeps this text, and a caller's words stay out.
      throw ClientAssertion.refused("the client_assertion's alg must be RS256, PS256 or ES256");
    }
    if (header.has("crit")) {
      throw ClientAssertion.refused(
          "the client_assertion's header has crit parameters, which this server does not take");
    }
    return alg;
  }

  /** RFC 7523 §3 item 3: aud, a string or an array, names the token endpoint or the issuer. */
  private void requireAudience(JsonNode aud) {
    boolean named = false;
    if (aud != null && aud.isTextual()) {
      named = names(aud.asText());
    } else if (aud != null && aud.isArray()) {
      for (JsonNode one : aud) {
        named |= one.isTextual() && names(one.asText());
      }
    }
    if (!named) {
      throw ClientAssertion.refused(
          "the client_assertion's aud does not name this token endpoint ("
              + tokenEndpoint
              + ") or the issuer");
    }
  }

  private boolean names(String audience) {
    return audience.equals(tokenEndpoint) || audience.equals(issuer);
  }

  /**
   * RFC 7523 §3 items 4 to 6, issue 22: exp present and not past (within the skew), at most 5
   * minutes after iat or now; nbf and iat, when present, not in the future (within the skew).
   *
   * @return the assertion's exp
   */
  private static Instant requireTimes(JsonNode claims, Instant now) {
    Instant exp =
        numericDate(claims, "exp")
            .orElseThrow(() -> ClientAssertion.refused("the client_assertion has no exp"));
    if (!now.isBefore(exp.plus(SKEW))) {
      throw ClientAssertion.refused("the client_assertion expired at " + exp);
    }
    Optional<Instant> nbf = numericDate(claims, "nbf");
    if (nbf.isPresent() && now.plus(SKEW).isBefore(nbf.get())) {
      throw ClientAssertion.refused("the client_assertion is not valid before " + nbf.get());
    }
    Optional<Instant> iat = numericDate(claims, "iat");
    if (iat.isPresent() && now.plus(SKEW).isBefore(iat.get())) {
      throw ClientAssertion.refused("the client_assertion's iat is in the future");
    }
    if (exp.isAfter(iat.orElse(now).plus(MAX_LIFETIME))) {
      throw ClientAssertion.refused(
          "the client_assertion's exp is more than 5 minutes after its "
              + (iat.isPresent() ? "iat" : "arrival (it has no iat)"));
    }
    return exp;
  }

  /** RFC 7519 §2 NumericDate: seconds, maybe with a fraction; another type is refused. */
  private static Optional<Instant> numericDate(JsonNode claims, String claim) {
    JsonNode value = claims.get(claim);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isNumber() || value.asDouble() < 0 || value.asDouble() > 1e11) {
      throw ClientAssertion.refused("the client_assertion's " + claim + " is not a NumericDate");
    }
    return Optional.of(Instant.ofEpochSecond((long) Math.floor(value.asDouble())));
  }

  /**
   * The account whose key made the signature. One verification in every case: with no account, no
   * key, or a key of another type, against the decoy key of the algorithm, and then refused.
   */
  private ServiceAccount signer(TokenRequest request, ClientAssertion assertion, String alg) {
    ServiceAccounts.Lookup lookup =
        request
            .accountId()
            .map(id -> accounts.findOrDecoy(id, decoy))
            .orElseGet(() -> new ServiceAccounts.Lookup(false, decoy));
    ServiceAccount account = lookup.account();
    Optional<String> kid = ClientAssertion.text(assertion.header(), "kid");
    Optional<ClientJwks.ClientKey> key =
        lookup.found() && account.usesKeys()
            ? keys.find(account.clientId(), account.credential(), kid, alg)
            : Optional.empty();
    boolean verified =
        verify(alg, key.map(ClientJwks.ClientKey::key).orElse(decoyKeys.get(alg)), assertion);
    if (key.isEmpty() || !verified) {
      throw ClientAssertion.refused(NOT_SIGNED);
    }
    return account;
  }

  /** RFC 7518 §3.3, §3.5 and §3.4: the three algorithms through the JDK's own providers. */
  static boolean verify(String alg, PublicKey key, ClientAssertion assertion) {
    try {
      Signature signature = signature(alg);
      signature.initVerify(key);
      signature.update(assertion.signingInput());
      return signature.verify(assertion.signature());
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      // A malformed signature, or a key the algorithm cannot use: not a proof.
      return false;
    }
  }

  static Signature signature(String alg) throws GeneralSecurityException {
    return switch (alg) {
      case "RS256" -> Signature.getInstance("SHA256withRSA");
      case "PS256" -> {
        Signature pss = Signature.getInstance("RSASSA-PSS");
        pss.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
        yield pss;
      }
        // JWS wants R and S side by side (RFC 7518 §3.4), not DER.
      case "ES256" -> Signature.getInstance("SHA256withECDSAinP1363Format");
      default -> throw new GeneralSecurityException("not an assertion algorithm: " + alg);
    };
  }

  private static Map<String, PublicKey> decoyKeys() {
    try {
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(2048);
      PublicKey rsaKey = rsa.generateKeyPair().getPublic();
      KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
      ec.initialize(new ECGenParameterSpec("secp256r1"));
      return Map.of("RS256", rsaKey, "PS256", rsaKey, "ES256", ec.generateKeyPair().getPublic());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK cannot make RSA and P-256 keys", e);
    }
  }
}
