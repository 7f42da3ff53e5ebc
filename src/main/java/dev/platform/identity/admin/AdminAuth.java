package dev.platform.identity.admin;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.ClientAddress;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.UnauthenticatedException;
import dev.platform.identity.verify.VerifiedToken;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import java.util.List;

/**
 * Authorisation of the administration API, all in one place (ADMIN.md): every {@code /admin/v1}
 * request carries a bearer token of this service, verified as SPEC 5.4 says; {@code identity:admin}
 * may do everything, {@code identity:accounts.manage} manages the accounts of the organizations in
 * its token's {@code accessible_orgs}, {@code identity:keys.manage} the signing keys. Runs before
 * matching, so even an unknown admin path needs a token.
 */
@Provider
@PreMatching
public final class AdminAuth implements ContainerRequestFilter, ContainerResponseFilter {
  public static final String ADMIN = "identity:admin";
  public static final String ACCOUNTS = "identity:accounts.manage";
  public static final String KEYS = "identity:keys.manage";

  static final String PREFIX = "admin/v1";
  private static final String CALLER = AdminAuth.class.getName() + ".caller";

  private final BearerVerifier verifier;
  private final AuditLog audit;

  public AdminAuth(BearerVerifier verifier, AuditLog audit) {
    this.verifier = verifier;
    this.audit = audit;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath();
    if (!isAdmin(path)) {
      return;
    }
    String remote = ClientAddress.of(request);
    VerifiedToken token;
    try {
      token = verifier.verify(request.getHeaderString(HttpHeaders.AUTHORIZATION), List.of());
    } catch (UnauthenticatedException e) {
      audit.record("admin.refuse", null, path, "unauthenticated", remote);
      throw new ApiError(401, "The request is unauthenticated: " + e.getMessage());
    }
    List<String> anyOf = requiredScopes(path, request.getMethod());
    if (anyOf.stream().noneMatch(token::hasScope)) {
      audit.record("admin.refuse", token.clientId(), path, "insufficient_scope", remote);
      throw ApiError.forbidden(
          "The caller has no permission for this resource: it needs one of " + anyOf);
    }
    request.setEntityStream(new BoundedBody(request.getEntityStream()));
    request.setProperty(CALLER, new Caller(token, remote, audit));
  }

  /** Nothing the administration API answers is cached: it carries secrets and live state. */
  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (isAdmin(request.getUriInfo().getPath())) {
      response.getHeaders().putSingle(HttpHeaders.CACHE_CONTROL, "no-store");
    }
  }

  private static boolean isAdmin(String path) {
    String relative = path.startsWith("/") ? path.substring(1) : path;
    return relative.equals(PREFIX) || relative.startsWith(PREFIX + "/");
  }

  /** The scopes of which a caller needs one, by URL family and method. */
  static List<String> requiredScopes(String path, String method) {
    String relative = path.startsWith("/") ? path.substring(1) : path;
    if (relative.startsWith(PREFIX + "/service-accounts")) {
      return List.of(ADMIN, ACCOUNTS);
    }
    if (relative.startsWith(PREFIX + "/signing-keys")) {
      return List.of(ADMIN, KEYS);
    }
    if (relative.startsWith(PREFIX + "/scopes") && HttpMethod.GET.equals(method)) {
      return List.of(ADMIN, ACCOUNTS, KEYS);
    }
    return List.of(ADMIN);
  }

  /** The verified caller of the current request. */
  static Caller caller(ContainerRequestContext request) {
    Object caller = request.getProperty(CALLER);
    if (caller == null) {
      throw new IllegalStateException("an admin resource ran without AdminAuth");
    }
    return (Caller) caller;
  }

  /** Who is calling, and the organization rules that apply to them. */
  record Caller(VerifiedToken token, String remoteAddress, AuditLog audit) {
    boolean isAdmin() {
      return token.hasScope(ADMIN);
    }

    /** {@code identity:admin}: every organization; otherwise those of the token. */
    boolean mayManage(String organization) {
      return isAdmin() || token.hasOrganization(organization);
    }

    void requireOrganization(String organization) {
      if (!mayManage(organization)) {
        throw ApiError.forbidden("The caller has no permission for organization " + organization);
      }
    }

    /**
     * A non-administrator creates accounts only inside its own organizations and without {@code
     * identity:} scopes, so it cannot make an account more powerful than itself.
     */
    void requireMayCreate(AccountProfile profile) {
      requireOrganization(profile.organizationId());
      profile.accessibleOrgs().forEach(this::requireOrganization);
      if (!isAdmin() && profile.scopes().stream().anyMatch(s -> s.startsWith("identity:"))) {
        throw ApiError.forbidden("Only identity:admin may grant identity: scopes");
      }
    }

    void audit(String event, String target) {
      audit.record(event, token.clientId(), target, "success", remoteAddress);
    }
  }
}
