package dev.platform.identity.token;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.CertificateSubject;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.verify.CertificateThumbprint;
import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks a client's id and secret against its account (SPEC 7.1, 3.1): one primary-key read, one
 * HMAC and two constant-time compares (current and previous secret), the same work whether or not
 * the account exists and whether or not it has a previous secret. The HMAC is under the pepper the
 * account's row names; only an overlap whose two secrets are under different peppers costs a second
 * one. A secret proven against a digest under a previous pepper is digested anew under the current
 * one, in one UPDATE on that rare path.
 *
 * <p>A {@code self_signed_tls_client_auth} client (RFC 8705 §2.2) is read by the same one read, and
 * its presented certificate's thumbprint compared in constant time with each registered one; an
 * unknown client_id, or an account of another method, is compared with the decoy's one thumbprint
 * instead, and all of them fail with the same {@link #FAILED}.
 */
final class ClientAuthenticator {
  static final String FAILED = "Client authentication failed: unknown client or wrong secret";
  static final String REVOKED = "The client has been revoked";
  static final String EXPIRED = "The client secret has expired";

  /** An account whose secret expires within this is audited, once a day. */
  static final Duration EXPIRY_WARNING = Duration.ofDays(14);

  /** What an account without registered certificates is compared with: no certificate's. */
  private static final List<String> DECOY_THUMBPRINTS =
      List.of("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");

  /** What an account without a registered subject is compared with: no certificate's. */
  private static final CertificateSubject DECOY_SUBJECT =
      new CertificateSubject(CertificateSubject.Kind.SUBJECT_DN, "CN=decoy,O=no client's");

  /** The decoy's previous secret never expires in any clock a deployment has. */
  private static final Duration DECOY_OVERLAP = Duration.ofDays(365L * 200);

  private static final Logger LOG = Logger.getLogger(ClientAuthenticator.class.getName());

  private final ServiceAccounts accounts;
  private final SecretDigest digest;
  private final Clock clock;
  private final Optional<Duration> secretMaxAge;
  private final SecretExpiryNotices notices = new SecretExpiryNotices();
  private final AccountCertificates certificates = new AccountCertificates();

  /** The CAs a tls_client_auth client's certificate must chain to. */
  private final CertificateAuthorities authorities;

  /** How private_key_jwt clients' assertions are checked. */
  private final ClientAssertions assertions;

  /**
   * Read, built and compared against when there is no account, so timing tells nothing about
   * existence. Its digests are of random secrets nobody knows; it is never stored and never
   * authenticates, since {@link ServiceAccounts.Lookup#found} is false for it. Its lists hold a
   * word each like an account's: an empty list is parsed faster than any stored one. It has a
   * previous secret in its overlap, the shape of the costliest account.
   */
  private final ServiceAccount decoy;

  /**
   * Authenticates against {@code accounts}, comparing digests made by {@code digest}; a current
   * secret older than {@code secretMaxAge} at {@code clock}'s time is refused. Client assertions
   * are taken as {@code assertions} says, CA-issued certificates ({@code tls_client_auth}) when
   * they chain to one of {@code authorities}.
   */
  ClientAuthenticator(
      ServiceAccounts accounts,
      SecretDigest digest,
      Clock clock,
      Optional<Duration> secretMaxAge,
      Assertions assertions,
      CertificateAuthorities authorities) {
    this.authorities = authorities;
    this.accounts = accounts;
    this.digest = digest;
    this.clock = clock;
    this.secretMaxAge = secretMaxAge;
    this.decoy =
        ServiceAccount.create(
            UUID.randomUUID(),
            new AccountProfile("decoy", "decoy", List.of(), List.of("decoy:none"), "decoy"),
            digest.of(UUID.randomUUID().toString()),
            Instant.EPOCH);
    decoy.replaceSecret(digest.of(UUID.randomUUID().toString()), DECOY_OVERLAP, Instant.EPOCH);
    this.assertions =
        new ClientAssertions(
            accounts,
            new AccountKeys(assertions.published()),
            assertions.used(),
            clock,
            assertions.issuer(),
            assertions.tokenEndpointAudience(),
            decoy);
  }

  /**
   * What private_key_jwt clients need.
   *
   * @param issuer the issuer, which an assertion's aud must be
   * @param used where each assertion's jti is taken once
   * @param published the key sets clients publish at their jwks_uri
   * @param tokenEndpointAudience whether the token endpoint's URL is an aud taken too ( {@code
   *     identity/assertionAudience})
   */
  record Assertions(
      URI issuer, UsedJtis used, AccountKeys.Published published, boolean tokenEndpointAudience) {}

  /**
   * The active account these credentials prove, and which of its secrets they carry.
   *
   * @throws OAuthError {@code invalid_client}: with the "revoked" text only when the secret matches
   *     a deactivated or deleted account, so strangers learn nothing about an account's state; with
   *     the "expired" text only when it matches a current secret older than the maximum age
   */
  Authenticated authenticate(TokenRequest request) {
    if (request.assertion().isPresent()) {
      ServiceAccount account = assertions.authenticate(request, request.assertion().get());
      return new Authenticated(
          account,
          SecretDigest.Match.NONE,
          Optional.empty(),
          Optional.empty(),
          request.authentication());
    }
    if (request.byCertificate()) {
      return byCertificate(request, request.certificate().orElseThrow());
    }
    ServiceAccounts.Lookup lookup =
        request
            .accountId()
            .map(id -> accounts.findOrDecoy(id, decoy))
            .orElseGet(() -> new ServiceAccounts.Lookup(false, decoy));
    ServiceAccount account = lookup.account();
    Instant now = clock.instant();
    ServiceAccount.Secrets secrets = account.secrets();
    // An expired previous secret is absent, yet compared all the same, against the decoy's; named
    // under the current digest's pepper, so that the one HMAC serves both compares also for an
    // account on a previous pepper. Nobody's secret has that digest under any pepper.
    SecretDigest.Digest previous =
        secrets
            .previousAt(now)
            .orElseGet(
                () ->
                    new SecretDigest.Digest(
                        decoy.secrets().previous().value(), secrets.current().pepperId()));
    SecretDigest.Match match = digest.match(request.clientSecret(), secrets.current(), previous);
    // A key or certificate account has no secret: the decoy's digests stood in for it.
    if (!lookup.found() || match == SecretDigest.Match.NONE || !account.hasSecret()) {
      throw OAuthError.invalidClient(FAILED, request.usedBasic());
    }
    SecretDigest.Digest matched =
        match == SecretDigest.Match.CURRENT ? secrets.current() : previous;
    Optional<String> movedFrom =
        !matched.pepperId().equals(digest.currentPepperId())
                && movePepper(account, match, matched, request.clientSecret())
            ? Optional.of(matched.pepperId())
            : Optional.empty();
    if (!account.isActive()) {
      throw OAuthError.invalidClient(REVOKED, request.usedBasic());
    }
    Optional<Instant> expiry = secretMaxAge.map(secrets.currentCreatedAt()::plus);
    if (expiry.isPresent() && !now.isBefore(expiry.get())) {
      throw OAuthError.invalidClient(EXPIRED, request.usedBasic());
    }
    Optional<Instant> notice =
        expiry.filter(
            at ->
                now.plus(EXPIRY_WARNING).isAfter(at)
                    && notices.firstToday(account.clientId(), now));
    return new Authenticated(account, match, notice, movedFrom, request.authentication());
  }

  /**
   * RFC 8705 §2: a {@code self_signed_tls_client_auth} account's presented certificate must be one
   * it registered (§2.2); a {@code tls_client_auth} account's must chain to a CA the operator
   * trusts and carry the subject it registered (§2.1). The same work is done for every request
   * whatever the client_id names: the thumbprints compared (the decoy's for an account without
   * any), the path built when any CA is configured, the subject compared (the decoy's for an
   * account without one). "Revoked" is said only to a client that proved itself as a deactivated or
   * deleted account.
   */
  private Authenticated byCertificate(TokenRequest request, PresentedCertificate presented) {
    ServiceAccounts.Lookup lookup =
        request
            .accountId()
            .map(id -> accounts.findOrDecoy(id, decoy))
            .orElseGet(() -> new ServiceAccounts.Lookup(false, decoy));
    ServiceAccount account = lookup.account();
    X509Certificate certificate = presented.certificate();
    boolean selfSigned =
        lookup.found()
            && ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH.equals(account.tokenEndpointAuthMethod());
    boolean caIssued =
        lookup.found() && ServiceAccount.TLS_CLIENT_AUTH.equals(account.tokenEndpointAuthMethod());
    List<String> thumbprints =
        selfSigned ? certificates.of(account.jwks().orElseThrow()) : DECOY_THUMBPRINTS;
    boolean registered = AccountCertificates.matchesAny(thumbprints, certificate);
    boolean trusted = authorities.trust(presented.chain(), clock.instant());
    boolean named = account.certificateSubject().orElse(DECOY_SUBJECT).matches(certificate);
    boolean proven = (selfSigned && registered) || (caIssued && trusted && named);
    if (!proven) {
      throw OAuthError.invalidClient(FAILED, false);
    }
    if (!account.isActive()) {
      throw OAuthError.invalidClient(REVOKED, false);
    }
    return new Authenticated(
        account,
        SecretDigest.Match.NONE,
        Optional.empty(),
        Optional.empty(),
        selfSigned
            ? ClientAuthentication.SELF_SIGNED_TLS_CLIENT_AUTH
            : ClientAuthentication.TLS_CLIENT_AUTH,
        Optional.of(CertificateThumbprint.of(certificate)));
  }

  /**
   * The secret is proven, so its digest under a previous pepper is made anew under the current one,
   * whatever the account's status. Only an optimisation of the rotation: a failure is logged, and
   * the request goes on.
   *
   * @return whether this call moved it
   */
  private boolean movePepper(
      ServiceAccount account, SecretDigest.Match which, SecretDigest.Digest old, String secret) {
    try {
      return accounts.redigest(
          account.clientId(), which, old, digest.of(secret), digest.checkValue());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "The secret of service account "
              + account.clientId()
              + " could not be moved from pepper "
              + old.pepperId()
              + " to the current pepper; its next token request tries again: "
              + e.getMessage(),
          e);
      return false;
    }
  }

  /**
   * An authenticated client.
   *
   * @param account its account, active
   * @param secret which secret it presented: {@code CURRENT} or {@code PREVIOUS}
   * @param expiryNotice when its current secret expires, if that is within 14 days and this node
   *     has not said so today for this account
   * @param pepperMovedFrom the id of the previous pepper its secret's digest was just moved from to
   *     the current one, if this request moved it (the audit says so)
   * @param method how it authenticated; with {@code private_key_jwt} or {@code
   *     self_signed_tls_client_auth}, {@code secret} is {@code NONE}
   * @param certificateThumbprint the {@code x5t#S256} of the certificate it authenticated with,
   *     which its tokens are bound to (RFC 8705 §3); empty for other methods
   */
  record Authenticated(
      ServiceAccount account,
      SecretDigest.Match secret,
      Optional<Instant> expiryNotice,
      Optional<String> pepperMovedFrom,
      ClientAuthentication method,
      Optional<String> certificateThumbprint) {

    /**
     * The client whose token {@code request} asks for: a certificate client's bound to the
     * certificate it proved itself with; a secret or private_key_jwt client's bound to its
     * connection's certificate when its account asks for binding (RFC 8705 §3.4), and refused
     * without one, since it must get no token that is not; told after it proved itself, so a
     * stranger learns nothing of the account.
     *
     * @throws OAuthError {@code invalid_request} when binding is asked for and no certificate came
     */
    Authenticated forToken(TokenRequest request) {
      if (certificateThumbprint.isPresent() || !account.bindsTokens()) {
        return this;
      }
      PresentedCertificate presented =
          request
              .certificate()
              .orElseThrow(
                  () ->
                      OAuthError.invalidRequest(
                          "this client's tokens are bound to its TLS client certificate"
                              + " (tls_client_certificate_bound_access_tokens): present one"));
      return new Authenticated(
          account,
          secret,
          expiryNotice,
          pepperMovedFrom,
          method,
          Optional.of(CertificateThumbprint.of(presented.certificate())));
    }

    Authenticated(
        ServiceAccount account,
        SecretDigest.Match secret,
        Optional<Instant> expiryNotice,
        Optional<String> pepperMovedFrom,
        ClientAuthentication method) {
      this(account, secret, expiryNotice, pepperMovedFrom, method, Optional.empty());
    }
  }
}
