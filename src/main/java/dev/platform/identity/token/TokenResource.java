package dev.platform.identity.token;

import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.ClientAddress;
import dev.platform.identity.scope.GrantedScopes;
import dev.platform.identity.scope.InvalidScopeException;
import dev.platform.identity.scope.ScopeCatalog;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code POST /oauth/token} (SPEC 4.1): parse, authenticate, grant, sign. A read path: one
 * primary-key read of the account, one digest compare, one RSA signature (DESIGN decision 2).
 */
@Path("/oauth/token")
@Produces(MediaType.APPLICATION_JSON)
public final class TokenResource {
  /** A token request is a few hundred bytes; anything near this is not one. */
  static final int MAX_BODY = 16 * 1024;

  private final ClientAuthenticator clients;
  private final ScopeCatalog scopes;
  private final TokenIssuer issuer;
  private final AuditLog audit;

  public TokenResource(
      ServiceAccounts accounts,
      SecretDigest digest,
      ScopeCatalog scopes,
      TokenIssuer issuer,
      AuditLog audit) {
    this.clients = new ClientAuthenticator(accounts, digest);
    this.scopes = scopes;
    this.issuer = issuer;
    this.audit = audit;
  }

  @POST
  @Consumes(MediaType.WILDCARD)
  public Response token(
      InputStream body,
      @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
      @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
      @Context UriInfo uri,
      @Context ContainerRequestContext context) {
    TokenResponse token =
        issue(
            read(body),
            contentType,
            authorization,
            uri.getRequestUri().getRawQuery(),
            ClientAddress.of(context));
    return Response.ok(token)
        .header(HttpHeaders.CACHE_CONTROL, "no-store")
        .header("Pragma", "no-cache")
        .build();
  }

  /** The token path without HTTP: parse, authenticate, grant, sign; audited either way. */
  TokenResponse issue(
      String body, String contentType, String authorization, String query, String remote) {
    String clientId = null;
    try {
      TokenRequest request = TokenRequest.from(body, contentType, authorization, query);
      clientId = request.clientId();
      ServiceAccount account = clients.authenticate(request);
      TokenResponse token = TokenResponse.from(issuer.issue(account, grant(account, request)));
      audit.record("token.issue", clientId, token.scope(), "success", remote);
      return token;
    } catch (OAuthError e) {
      audit.record("token.refuse", clientId, null, e.error(), remote);
      throw e;
    }
  }

  @GET
  public Response get() {
    return onlyPost();
  }

  @PUT
  public Response put() {
    return onlyPost();
  }

  @DELETE
  public Response delete() {
    return onlyPost();
  }

  @PATCH
  public Response patch() {
    return onlyPost();
  }

  /** RFC 6749 §3.2: the token endpoint is POST only; say so in the OAuth shape. */
  private static Response onlyPost() {
    OAuthError error =
        new OAuthError(405, OAuthError.INVALID_REQUEST, "The token endpoint accepts only POST");
    return Response.fromResponse(new OAuthErrorMapper().toResponse(error))
        .header(HttpHeaders.ALLOW, "POST")
        .build();
  }

  private GrantedScopes grant(ServiceAccount account, TokenRequest request) {
    try {
      return scopes.grant(account.scopes(), request.scope());
    } catch (InvalidScopeException e) {
      throw OAuthError.invalidScope(e.getMessage());
    }
  }

  private static String read(InputStream body) {
    try {
      byte[] bytes = body.readNBytes(MAX_BODY + 1);
      if (bytes.length > MAX_BODY) {
        throw OAuthError.invalidRequest("The request body is larger than " + MAX_BODY + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw OAuthError.invalidRequest("The request body could not be read");
    }
  }
}
