package dev.platform.identity.token;

import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.scope.Scope;
import dev.platform.identity.scope.ScopeCatalog;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;

/**
 * RFC 8414 authorization-server metadata, so standard clients configure themselves from the issuer
 * alone, with the revocation (RFC 7009) and introspection (RFC 7662) endpoints of issue 38 and the
 * DPoP proof algorithms of issue 40 (RFC 9449 §5.1). ({@code /.well-known/jwks.json} stays absent:
 * SPEC 4.4.)
 */
@Path("/.well-known/oauth-authorization-server")
@Produces(MediaType.APPLICATION_JSON)
public final class DiscoveryResource {
  /** Scopes can be added by administrators; a short cache keeps the list close. */
  private static final int MAX_AGE_SECONDS = 300;

  private final URI issuer;
  private final ScopeCatalog scopes;

  public DiscoveryResource(URI issuer, ScopeCatalog scopes) {
    this.issuer = issuer;
    this.scopes = scopes;
  }

  /** RFC 8414 §2; names become snake_case on the wire. */
  record Metadata(
      String issuer,
      String tokenEndpoint,
      String jwksUri,
      List<String> grantTypesSupported,
      List<String> tokenEndpointAuthMethodsSupported,
      List<String> tokenEndpointAuthSigningAlgValuesSupported,
      List<String> scopesSupported,
      List<String> responseTypesSupported,
      String revocationEndpoint,
      List<String> revocationEndpointAuthMethodsSupported,
      List<String> revocationEndpointAuthSigningAlgValuesSupported,
      String introspectionEndpoint,
      List<String> introspectionEndpointAuthMethodsSupported,
      List<String> introspectionEndpointAuthSigningAlgValuesSupported,
      boolean tlsClientCertificateBoundAccessTokens,
      List<String> dpopSigningAlgValuesSupported) {}

  @GET
  public Response metadata() {
    String base = issuer.toString();
    // Revocation and introspection authenticate clients exactly as the token endpoint does.
    List<String> methods =
        List.of(
            ClientAuthentication.CLIENT_SECRET_BASIC.wireName(),
            ClientAuthentication.CLIENT_SECRET_POST.wireName(),
            ClientAuthentication.PRIVATE_KEY_JWT.wireName(),
            ClientAuthentication.TLS_CLIENT_AUTH.wireName(),
            ClientAuthentication.SELF_SIGNED_TLS_CLIENT_AUTH.wireName());
    Metadata metadata =
        new Metadata(
            base,
            base + "/oauth/token",
            base + "/api/public-keys",
            List.of(TokenRequest.CLIENT_CREDENTIALS),
            methods,
            ClientJwks.ALGORITHMS,
            scopes.list().stream().map(Scope::name).toList(),
            List.of(),
            base + "/oauth/revoke",
            methods,
            ClientJwks.ALGORITHMS,
            base + "/oauth/introspect",
            methods,
            ClientJwks.ALGORITHMS,
            // RFC 8705 §3.3: a certificate-authenticated client's tokens are bound to it.
            true,
            // RFC 9449 §5.1: the algorithms the token endpoint takes DPoP proofs in.
            DpopProofs.DEFAULT_ALGORITHMS.stream().map(Enum::name).toList());
    CacheControl cache = new CacheControl();
    cache.setMaxAge(MAX_AGE_SECONDS);
    return Response.ok(metadata).cacheControl(cache).build();
  }
}
