package dev.platform.identity.admin;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.ClientAddress;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.UnauthenticatedException;
import dev.platform.identity.verify.VerifiedToken;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * Authorisation of the administration API, all in one place (ADMIN.md): every request that Jersey
 * routed to a resource of {@code /admin/v1} carries a bearer token of this service, verified as
 * SPEC 5.4 says, of an account that is still active, with one of the scopes that the matched method
 * names ({@link AnyScopeOf}; {@code identity:admin} alone where it names none).
 *
 * <p>It runs after matching and decides from the resource Jersey matched, never from how the path
 * was spelled: a matrix parameter or an encoded letter that still routes to a resource meets the
 * same check (the spelling attack of issue 16 went around a pre-matching filter that read the raw
 * path). A path that routes nowhere is Jersey's 404.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public final class AdminAuth implements ContainerRequestFilter, ContainerResponseFilter {
  public static final String ADMIN = "identity:admin";
  public static final String ACCOUNTS = "identity:accounts.manage";
  public static final String KEYS = "identity:keys.manage";

  /** The template of every administration resource starts so. */
  static final String PREFIX = "/admin/v1";

  private static final String CALLER = AdminAuth.class.getName() + ".caller";

  private final BearerVerifier verifier;
  private final ServiceAccounts accounts;
  private final AuditLog audit;

  public AdminAuth(BearerVerifier verifier, ServiceAccounts accounts, AuditLog audit) {
    this.verifier = verifier;
    this.accounts = accounts;
    this.audit = audit;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    ExtendedUriInfo matched = (ExtendedUriInfo) request.getUriInfo();
    if (!isAdmin(matched.getMatchedModelResource())) {
      return;
    }
    String target = matched.getPath();
    String remote = ClientAddress.of(request);
    VerifiedToken token;
    try {
      token = verifier.verify(request.getHeaderString(HttpHeaders.AUTHORIZATION), List.of());
      requireActiveAccount(token);
    } catch (UnauthenticatedException e) {
      audit.record("admin.refuse", null, target, "unauthenticated", remote);
      throw ApiError.unauthenticated(e.getMessage(), e.challenge());
    }
    List<String> anyOf = requiredScopes(matched.getMatchedResourceMethod());
    if (anyOf.stream().noneMatch(token::hasScope)) {
      audit.record("admin.refuse", token.clientId(), target, "insufficient_scope", remote);
      throw ApiError.insufficientScope(anyOf);
    }
    request.setEntityStream(new BoundedBody(request.getEntityStream()));
    request.setProperty(CALLER, new Caller(token, remote, audit));
  }

  /**
   * A deactivated or deleted account loses its administration at once, not when its token expires:
   * one primary-key read per administration request.
   */
  private void requireActiveAccount(VerifiedToken token) {
    Optional<ServiceAccount> account;
    try {
      account = accounts.find(UUID.fromString(token.clientId()));
    } catch (IllegalArgumentException e) {
      account = Optional.empty();
    }
    if (account.filter(ServiceAccount::isActive).isEmpty()) {
      throw new UnauthenticatedException("the caller's account is not active");
    }
  }

  /** Nothing the administration API answers is cached: it carries secrets and live state. */
  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (isAdmin(((ExtendedUriInfo) request.getUriInfo()).getMatchedModelResource())) {
      response.getHeaders().putSingle(HttpHeaders.CACHE_CONTROL, "no-store");
    }
  }

  /** Whether Jersey matched a resource whose root template is under {@link #PREFIX}. */
  static boolean isAdmin(Resource matched) {
    Resource root = matched;
    while (root != null && root.getParent() != null) {
      root = root.getParent();
    }
    String path = root == null || root.getPath() == null ? "" : root.getPath();
    String template = path.startsWith("/") ? path : "/" + path;
    return template.equals(PREFIX) || template.startsWith(PREFIX + "/");
  }

  /** The scopes of which a caller needs one: the matched method's, else its class's, else admin. */
  static List<String> requiredScopes(ResourceMethod matched) {
    Method method = matched == null ? null : matched.getInvocable().getHandlingMethod();
    AnyScopeOf scopes =
        method == null
            ? null
            : Optional.ofNullable(method.getAnnotation(AnyScopeOf.class))
                .orElse(method.getDeclaringClass().getAnnotation(AnyScopeOf.class));
    return scopes == null ? List.of(ADMIN) : List.of(scopes.value());
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
     * Whether the caller may see and change an account: {@code identity:admin} every one; anyone
     * else only an account it could have created ({@link #requireMayCreate}), so that a manager can
     * neither take over an administrator by rotating its secret nor reach beyond its organizations.
     */
    boolean reaches(ServiceAccount account) {
      return isAdmin()
          || mayManage(account.organizationId())
              && account.accessibleOrgs().stream().allMatch(this::mayManage)
              && account.scopes().stream().noneMatch(Caller::isIdentityScope);
    }

    /**
     * A non-administrator creates accounts only inside its own organizations and without {@code
     * identity:} scopes, so it cannot make an account more powerful than itself.
     */
    void requireMayCreate(AccountProfile profile) {
      requireOrganization(profile.organizationId());
      profile.accessibleOrgs().forEach(this::requireOrganization);
      if (!isAdmin() && profile.scopes().stream().anyMatch(Caller::isIdentityScope)) {
        throw ApiError.forbidden("Only identity:admin may grant identity: scopes");
      }
    }

    private static boolean isIdentityScope(String scope) {
      return scope.startsWith("identity:");
    }

    void audit(String event, String target) {
      audit.record(event, token.clientId(), target, "success", remoteAddress);
    }
  }
}
