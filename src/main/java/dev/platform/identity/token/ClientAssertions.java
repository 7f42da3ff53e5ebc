package dev.platform.identity.token;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.jose.CompactJws;
import dev.platform.identity.jose.JwsAlgorithm;
import dev.platform.identity.jose.JwsException;
import dev.platform.identity.jose.NumericDate;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Authenticates a client by its {@code client_assertion} (RFC 7523 §3, RFC 7521 §4.2). First what
 * the assertion says of itself, each rule with a description that helps its developer and names
 * nothing but what was sent: the algorithm, {@code iss} and {@code sub}, {@code aud}, {@code exp},
 * {@code nbf}, {@code iat} and {@code jti}. Then the one check that involves an account, whose
 * every failure reads the same, so that a stranger learns nothing of other accounts: the signature,
 * by the account's key that the header's {@code kid} chooses. An unknown client, a secret account,
 * a missing key or a key of another type still costs one signature check, against a decoy key.
 * Last, the account's status and the {@code jti}'s single use.
 */
final class ClientAssertions {
  static final String NOT_SIGNED =
      "the client_assertion is not signed by a key registered for this client_id (or the client"
          + " is unknown)";
  static final String REPLAYED = "the client_assertion's jti was already used";

  /** The most an assertion may live, from its iat (or from now, without one). */
  static final Duration MAX_LIFETIME = Duration.ofMinutes(5);

  /** The clock skew allowed on exp, nbf and iat. */
  static final Duration SKEW = Duration.ofSeconds(60);

  private static final Set<String> ALGORITHMS = Set.copyOf(ClientJwks.ALGORITHMS);

  private final ServiceAccounts accounts;
  private final AccountKeys keys;
  private final UsedJtis used;
  private final Clock clock;
  private final String tokenEndpoint;
  private final String issuer;
  private final boolean tokenEndpointAudience;
  private final ServiceAccount decoy;
  private final Map<String, PublicKey> decoyKeys;

  /**
   * @param issuer the service's issuer, which an assertion's {@code aud} must be
   * @param tokenEndpointAudience whether its token endpoint's URL is an {@code aud} taken too
   * @param decoy the account read when no account has the client_id
   */
  ClientAssertions(
      ServiceAccounts accounts,
      AccountKeys keys,
      UsedJtis used,
      Clock clock,
      URI issuer,
      boolean tokenEndpointAudience,
      ServiceAccount decoy) {
    this.accounts = accounts;
    this.keys = keys;
    this.used = used;
    this.clock = clock;
    this.issuer = issuer.toString();
    this.tokenEndpoint = this.issuer + "/oauth/token";
    this.tokenEndpointAudience = tokenEndpointAudience;
    this.decoy = decoy;
    this.decoyKeys = decoyKeys();
  }

  /**
   * The active account the request's assertion proves.
   *
   * @throws OAuthError {@code invalid_client} saying which rule the assertion broke
   */
  ServiceAccount authenticate(TokenRequest request, ReceivedAssertion assertion) {
    Instant now = clock.instant();
    String alg = algorithm(assertion.header());
    JsonNode claims = assertion.claims();
    Optional<String> iss = ReceivedAssertion.text(claims, "iss");
    Optional<String> sub = ReceivedAssertion.text(claims, "sub");
    if (!iss.equals(Optional.of(request.clientId())) || !sub.equals(iss)) {
      throw ReceivedAssertion.refused(
          "the client_assertion's iss and sub must both be the client_id");
    }
    requireAudience(claims.get("aud"));
    Instant expiry = requireTimes(claims, now);
    String jti =
        ReceivedAssertion.text(claims, "jti")
            .filter(text -> !text.isEmpty())
            .orElseThrow(() -> ReceivedAssertion.refused("the client_assertion has no jti"));
    ServiceAccount account = signer(request, assertion, alg);
    if (!account.isActive()) {
      throw ReceivedAssertion.refused(ClientAuthenticator.REVOKED);
    }
    if (!used.claim(account.clientId(), jti, expiry.plus(SKEW), now)) {
      throw ReceivedAssertion.refused(REPLAYED);
    }
    return account;
  }

  /**
   * RFC 7518 §3.1: RS256, PS256 or ES256; never none, never a MAC, never a crit, since this server
   * understands no critical extension.
   */
  private static String algorithm(CompactJws.Header header) {
    try {
      return header.require(ALGORITHMS, Set.of());
    } catch (JwsException e) {
      // The alg sent is not repeated: the audit keeps this text, and a caller's words stay out.
      throw ReceivedAssertion.refused(
          e.reason() == JwsException.Reason.CRITICAL
              ? "the client_assertion's header has crit parameters, which this server does not"
                  + " take"
              : "the client_assertion's alg must be RS256, PS256 or ES256");
    }
  }

  /**
   * RFC 7523 §3 item 3 as draft-ietf-oauth-rfc7523bis tightens it: aud is one string, the issuer
   * exactly, or (unless {@code identity/assertionAudience} is {@code issuer}) the token endpoint's
   * URL exactly. Never an array, even of one: an assertion whose aud lists several servers was made
   * to be presented to each, so one of them could replay it here (audience injection).
   */
  private void requireAudience(JsonNode aud) {
    if (aud != null && aud.isArray()) {
      throw ReceivedAssertion.refused(
          "the client_assertion's aud must be a single string, not an array, and be "
              + audiences());
    }
    String audience = aud != null && aud.isTextual() ? aud.asText() : null;
    boolean named =
        issuer.equals(audience) || (tokenEndpointAudience && tokenEndpoint.equals(audience));
    if (!named) {
      throw ReceivedAssertion.refused("the client_assertion's aud must be " + audiences());
    }
  }

  /** What aud may be, for a refusal's description: only our own addresses. */
  private String audiences() {
    return tokenEndpointAudience
        ? "the issuer (" + issuer + ") or this token endpoint (" + tokenEndpoint + ")"
        : "the issuer (" + issuer + ")";
  }

  /**
   * RFC 7523 §3 items 4 to 6: exp present and not past (within the skew), at most 5 minutes after
   * iat or now; nbf and iat, when present, not in the future (within the skew).
   *
   * @return the assertion's exp
   */
  private static Instant requireTimes(JsonNode claims, Instant now) {
    Instant exp =
        numericDate(claims, "exp")
            .orElseThrow(() -> ReceivedAssertion.refused("the client_assertion has no exp"));
    if (!now.isBefore(exp.plus(SKEW))) {
      throw ReceivedAssertion.refused("the client_assertion expired at " + exp);
    }
    Optional<Instant> nbf = numericDate(claims, "nbf");
    if (nbf.isPresent() && now.plus(SKEW).isBefore(nbf.get())) {
      throw ReceivedAssertion.refused("the client_assertion is not valid before " + nbf.get());
    }
    Optional<Instant> iat = numericDate(claims, "iat");
    if (iat.isPresent() && now.plus(SKEW).isBefore(iat.get())) {
      throw ReceivedAssertion.refused("the client_assertion's iat is in the future");
    }
    if (exp.isAfter(iat.orElse(now).plus(MAX_LIFETIME))) {
      throw ReceivedAssertion.refused(
          "the client_assertion's exp is more than 5 minutes after its "
              + (iat.isPresent() ? "iat" : "arrival (it has no iat)"));
    }
    return exp;
  }

  /** RFC 7519 §2 NumericDate, by the rules every reader of a JWS here shares. */
  private static Optional<Instant> numericDate(JsonNode claims, String claim) {
    try {
      return NumericDate.of(claims, claim);
    } catch (JwsException e) {
      throw ReceivedAssertion.refused("the client_assertion's " + claim + " is not a NumericDate");
    }
  }

  /**
   * The account whose key made the signature. One verification in every case: with no account, no
   * key, or a key of another type, against the decoy key of the algorithm, and then refused.
   */
  private ServiceAccount signer(TokenRequest request, ReceivedAssertion assertion, String alg) {
    ServiceAccounts.Lookup lookup =
        request
            .accountId()
            .map(id -> accounts.findOrDecoy(id, decoy))
            .orElseGet(() -> new ServiceAccounts.Lookup(false, decoy));
    ServiceAccount account = lookup.account();
    Optional<String> kid = Optional.ofNullable(assertion.header().kid());
    Optional<ClientJwks.ClientKey> key =
        lookup.found() && account.signsAssertions()
            ? keys.find(account.clientId(), account.credential(), kid, alg)
            : Optional.empty();
    boolean verified =
        verify(alg, key.map(ClientJwks.ClientKey::key).orElse(decoyKeys.get(alg)), assertion);
    if (key.isEmpty() || !verified) {
      throw ReceivedAssertion.refused(NOT_SIGNED);
    }
    return account;
  }

  /**
   * RFC 7518 §3.3, §3.5 and §3.4, through the JDK's own providers, with the ECDSA range check
   * ({@link JwsAlgorithm#verify}).
   */
  static boolean verify(String alg, PublicKey key, ReceivedAssertion assertion) {
    return JwsAlgorithm.valueOf(alg).verify(key, assertion.signingInput(), assertion.signature());
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
