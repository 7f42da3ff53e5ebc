package dev.platform.identity.token;

import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.jose.DpopNonces;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.scope.ScopeCatalog;
import dev.platform.identity.verify.BearerVerifier;
import jakarta.servlet.Servlet;
import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The token endpoint as a node wires it: the client authenticator (secrets and client assertions),
 * the issuer and the servlet over them, on one clock and one set of meters. Built in one place so
 * that the tests exercise the wiring a started service has.
 */
public final class TokenEndpoint {
  private TokenEndpoint() {}

  /**
   * The token endpoint's URL under {@code issuer}, as discovery publishes it: what a DPoP proof's
   * {@code htu} must name, for a client over HTTP and for the console's sign-in in process alike.
   */
  public static URI url(URI issuer) {
    return URI.create(issuer + "/oauth/token");
  }

  /**
   * What the settings say of the endpoint.
   *
   * @param issuer the tokens' {@code iss}, and the {@code aud} a client assertion names
   * @param lifetime of every token (SPEC 8)
   * @param adminLifetime of a token granted an {@code identity:} scope, at most {@code lifetime}
   * @param secretMaxAge the age past which a current secret is refused, if any
   * @param tokenEndpointAudience whether the token endpoint's URL is an assertion's {@code aud}
   *     taken too ({@code identity/assertionAudience})
   * @param clientAuthorities the CAs a {@code tls_client_auth} client's certificate must chain to
   *     ({@code identity/tlsClientCaFile}); empty, none
   * @param dpopNonces the server nonces a DPoP proof must carry ({@code identity/dpopNonces}), or
   *     empty when proofs need none
   */
  public record Policy(
      URI issuer,
      Duration lifetime,
      Duration adminLifetime,
      Optional<Duration> secretMaxAge,
      boolean tokenEndpointAudience,
      List<X509Certificate> clientAuthorities,
      Optional<DpopNonces> dpopNonces) {
    public Policy {
      clientAuthorities = List.copyOf(clientAuthorities);
      Objects.requireNonNull(dpopNonces);
    }

    /** Without DPoP nonces. */
    public Policy(
        URI issuer,
        Duration lifetime,
        Duration adminLifetime,
        Optional<Duration> secretMaxAge,
        boolean tokenEndpointAudience,
        List<X509Certificate> clientAuthorities) {
      this(
          issuer,
          lifetime,
          adminLifetime,
          secretMaxAge,
          tokenEndpointAudience,
          clientAuthorities,
          Optional.empty());
    }

    /** This policy, DPoP proofs carrying a nonce of {@code nonces}. */
    public Policy withDpopNonces(DpopNonces nonces) {
      return new Policy(
          issuer,
          lifetime,
          adminLifetime,
          secretMaxAge,
          tokenEndpointAudience,
          clientAuthorities,
          Optional.of(nonces));
    }

    /** The token endpoint's URL, as discovery publishes it: a DPoP proof's {@code htu}. */
    URI tokenEndpoint() {
      return url(issuer);
    }

    /** Without CAs: no {@code tls_client_auth} client authenticates. */
    public Policy(
        URI issuer,
        Duration lifetime,
        Duration adminLifetime,
        Optional<Duration> secretMaxAge,
        boolean tokenEndpointAudience) {
      this(issuer, lifetime, adminLifetime, secretMaxAge, tokenEndpointAudience, List.of());
    }
  }

  /**
   * {@code POST /oauth/token} over these stores.
   *
   * @param digest what makes and compares the secrets' digests
   * @param keys the ring whose current key signs
   * @param used where each client assertion's jti is taken once; each DPoP proof's is taken once in
   *     its sibling over the same database ({@link UsedJtis#dpopProofs()})
   * @param published the key sets clients publish at their jwks_uri
   * @param meters where requests are counted and signatures timed
   */
  public static TokenServlet build(
      Policy policy,
      ServiceAccounts accounts,
      SecretDigest digest,
      ScopeCatalog scopes,
      KeyRing keys,
      UsedJtis used,
      AccountKeys.Published published,
      AuditLog audit,
      TokenMeters meters,
      Clock clock) {
    TokenIssuer issuer =
        new TokenIssuer(
            policy.issuer(), policy.lifetime(), policy.adminLifetime(), keys, clock, meters);
    DpopBinding dpop =
        new DpopBinding(
            DpopProofs.builder().clock(clock).build(),
            policy.tokenEndpoint(),
            used.dpopProofs(),
            policy.dpopNonces(),
            clock);
    return new TokenServlet(
        clients(policy, accounts, digest, used, published, clock),
        scopes,
        issuer,
        dpop,
        audit,
        meters);
  }

  /** {@code POST /oauth/revoke} and {@code POST /oauth/introspect}, as a node wires them. */
  public record ClientCallEndpoints(Servlet revocation, Servlet introspection) {}

  /**
   * The revocation (RFC 7009) and introspection (RFC 7662) endpoints: their clients authenticate as
   * at the token endpoint, by the same rules; {@code ownTokens} verifies the tokens they ask about
   * against this service's key ring and issuer.
   */
  public static ClientCallEndpoints clientCalls(
      Policy policy,
      ServiceAccounts accounts,
      SecretDigest digest,
      UsedJtis used,
      AccountKeys.Published published,
      AuditLog audit,
      Clock clock,
      BearerVerifier ownTokens,
      Revocations revocations,
      TokenMeters meters) {
    ClientAuthenticator clients = clients(policy, accounts, digest, used, published, clock);
    return new ClientCallEndpoints(
        new ClientCallServlet(
            "The revocation endpoint",
            "token.revoke.refuse",
            clients,
            audit,
            new Revocation(ownTokens, revocations, audit)),
        new ClientCallServlet(
            "The introspection endpoint",
            "token.introspect.refuse",
            clients,
            audit,
            new Introspection(ownTokens, revocations, accounts, meters)));
  }

  /**
   * The endpoint's client authentication: secrets, and assertions checked as {@code policy} says.
   */
  static ClientAuthenticator clients(
      Policy policy,
      ServiceAccounts accounts,
      SecretDigest digest,
      UsedJtis used,
      AccountKeys.Published published,
      Clock clock) {
    return new ClientAuthenticator(
        accounts,
        digest,
        clock,
        policy.secretMaxAge(),
        new ClientAuthenticator.Assertions(
            policy.issuer(), used, published, policy.tokenEndpointAudience()),
        new CertificateAuthorities(policy.clientAuthorities()));
  }
}
