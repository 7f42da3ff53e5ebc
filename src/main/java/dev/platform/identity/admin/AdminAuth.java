package dev.platform.identity.admin;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.Bootstrap;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.scope.Scope;
import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.DpopRequest;
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
import java.net.URI;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * Authorisation of the administration API, all in one place (ADMIN.md): every request that Jersey
 * routed to a resource of {@code /admin/v1} carries a bearer token of this service, verified as
 * SPEC 5.4 says, of an account that is still active, with one of the scopes that the matched method
 * names ({@link AnyScopeOf}; {@code identity:admin} alone where it names none). A token bound to a
 * client certificate (RFC 8705) is admitted only with the certificate of the request's connection.
 * A token bound to a key (RFC 9449, {@code cnf.jkt}) is admitted only as {@code Authorization: DPoP
 * <token>} with a {@code DPoP} proof of that key whose {@code htu} is the URL as the service
 * publishes it: the issuer ({@code identity/issuer}) followed by the path under the application, as
 * the token endpoint's is the issuer followed by {@code /oauth/token}, never a URL rebuilt from the
 * request's {@code Host} header, which the client writes and a proxy may change.
 *
 * <p>It runs after matching and decides from the resource Jersey matched, never from how the path
 * was spelled: a matrix parameter or an encoded letter that still routes to a resource meets the
 * same check (a spelling attack once went around a pre-matching filter that read the raw path). A
 * path that routes nowhere is Jersey's 404.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public final class AdminAuth implements ContainerRequestFilter, ContainerResponseFilter {
  public static final String ADMIN = Bootstrap.ADMIN_SCOPE;
  public static final String ACCOUNTS = "identity:accounts.manage";
  public static final String KEYS = "identity:keys.manage";
  public static final String AUDIT_READ = "identity:audit.read";

  /** The scopes of administration: the console admits an account with one of them. */
  public static final List<String> ADMINISTRATION_SCOPES =
      List.of(ADMIN, ACCOUNTS, KEYS, AUDIT_READ);

  /** The template of every administration resource starts so. */
  static final String PREFIX = "/admin/v1";

  private static final String CALLER = AdminAuth.class.getName() + ".caller";

  private final BearerVerifier verifier;
  private final ServiceAccounts accounts;
  private final AuditLog audit;
  private final List<String> grantable;
  private final Revocations revocations;

  /** The issuer without a trailing slash: the base of the URLs that DPoP proofs name. */
  private final String published;

  /** What a proof must name when the request's path makes no URI: no proof names it. */
  private static final URI NO_TARGET = URI.create("https://request-path-not-a-uri.invalid/");

  /**
   * @param issuer the issuer ({@code identity/issuer}), under which the service publishes its URLs:
   *     DPoP proofs name the administration URLs under it
   * @param grantable scopes a caller without {@code identity:admin} may grant beyond its own
   *     ({@code identity/managerGrantableScopes})
   * @param revocations the revoked tokens, which are refused as an expired one is (issue 38)
   */
  public AdminAuth(
      URI issuer,
      BearerVerifier verifier,
      ServiceAccounts accounts,
      AuditLog audit,
      List<String> grantable,
      Revocations revocations) {
    this.revocations = revocations;
    String base = issuer.toString();
    this.published = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    this.verifier = verifier;
    this.accounts = accounts;
    this.audit = audit;
    this.grantable = List.copyOf(grantable);
  }

  @Override
  public void filter(ContainerRequestContext request) {
    ExtendedUriInfo matched = (ExtendedUriInfo) request.getUriInfo();
    if (!isAdmin(matched.getMatchedModelResource())) {
      return;
    }
    admit(
        request,
        request.getHeaderString(HttpHeaders.AUTHORIZATION),
        requiredScopes(matched.getMatchedResourceMethod()));
  }

  /**
   * The check of every administration request, for a request that carries its bearer token as
   * {@code authorization}: the API's header, or the console's sealed session, which so meets the
   * same verification, the same active-account check, the same scopes of the matched method and the
   * same {@link Caller} rules. {@code DPoP <token>} is taken with the request's {@code DPoP} header
   * (RFC 9449 §7), whose proof names the request's method and its published URL ({@link
   * #dpopTarget}).
   *
   * @param anyOf the scopes of which the caller needs one ({@link #requiredScopes})
   * @throws ApiError 401 or 403, audited as a refusal
   */
  public void admit(ContainerRequestContext request, String authorization, List<String> anyOf) {
    admit(request, authorization, dpop(request), anyOf);
  }

  /**
   * {@link #admit(ContainerRequestContext, String, List)} with {@code dpop} as the DPoP side of the
   * request rather than its {@code DPoP} header: for the console, which presents its session's
   * token in process as {@code DPoP <token>} with a proof it makes by the session's key for the
   * request's method and {@link #dpopTarget}.
   *
   * @param dpop the proofs, method and URL a {@code DPoP} token's proof is checked against
   */
  public void admit(
      ContainerRequestContext request, String authorization, DpopRequest dpop, List<String> anyOf) {
    ExtendedUriInfo matched = (ExtendedUriInfo) request.getUriInfo();
    String target = matched.getPath();
    String remote = ClientAddress.of(request);
    VerifiedToken token;
    try {
      // The account's standing and the scopes are checked before a DPoP proof's jti is taken: a
      // token that may not administer (or no longer may) leaves nothing in the replay cache.
      token =
          verifier.verify(
              authorization,
              dpop,
              certificate(request),
              verified -> {
                requireActiveAccount(verified);
                if (anyOf.stream().noneMatch(verified::hasScope)) {
                  audit.record(
                      "admin.refuse", verified.clientId(), target, "insufficient_scope", remote);
                  throw ApiError.insufficientScope(anyOf, verified.keyThumbprint().isPresent());
                }
              });
    } catch (UnauthenticatedException e) {
      audit.record("admin.refuse", null, target, "unauthenticated", remote);
      throw ApiError.unauthenticated(e.getMessage(), e.challenge());
    }
    request.setEntityStream(new BoundedBody(request.getEntityStream()));
    request.setProperty(CALLER, new Caller(token, remote, audit, grantable));
  }

  /** The request's {@code DPoP} headers, its method and its published URL. */
  private DpopRequest dpop(ContainerRequestContext request) {
    List<String> proofs = request.getHeaders() == null ? null : request.getHeaders().get("DPoP");
    return new DpopRequest(
        proofs == null ? List.of() : proofs, request.getMethod(), dpopTarget(request));
  }

  /**
   * The URL a DPoP proof must name: the issuer, then the request's path under the application as
   * sent (still percent-encoded), without its query. Each of the service's nodes makes the same,
   * whichever host name or address the request reached it by.
   */
  public URI dpopTarget(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath(false);
    if (DpopRequest.hasDotSegment(path)) {
      return DpopRequest.NO_TARGET;
    }
    try {
      return URI.create(published + "/" + (path.startsWith("/") ? path.substring(1) : path));
    } catch (IllegalArgumentException e) {
      return NO_TARGET;
    }
  }

  /**
   * The client certificate of the request's TLS connection, or null: a token bound to one (RFC
   * 8705) is admitted only with it. Jersey reads the property from the servlet request's attribute.
   */
  public static X509Certificate certificate(ContainerRequestContext request) {
    return BearerCheck.presentedCertificate(request.getProperty(BearerCheck.CERTIFICATE_ATTRIBUTE));
  }

  /**
   * A deactivated or deleted account loses its administration at once, not when its token expires,
   * and so does a token issued before the account's last change ({@link ServiceAccounts#refusal})
   * and a revoked token (by its jti or its account's cut-off, from memory).
   */
  private void requireActiveAccount(VerifiedToken token) {
    if (revocations.isRevoked(
        token.clientId(), token.tokenId().orElse(null), token.issuedAt().orElse(null))) {
      throw new UnauthenticatedException("the token has been revoked");
    }
    accounts
        .refusal(token.clientId(), token.issuedAt())
        .ifPresent(
            reason -> {
              throw new UnauthenticatedException(reason);
            });
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
    return isUnder(matched, PREFIX);
  }

  /**
   * Whether Jersey matched a resource whose root template is {@code prefix} or under it: how the
   * API's and the console's checks decide what they guard, from the model, never from the path as
   * spelled.
   */
  public static boolean isUnder(Resource matched, String prefix) {
    Resource root = matched;
    while (root != null && root.getParent() != null) {
      root = root.getParent();
    }
    String path = root == null || root.getPath() == null ? "" : root.getPath();
    String template = path.startsWith("/") ? path : "/" + path;
    return template.equals(prefix) || template.startsWith(prefix + "/");
  }

  /** The scopes of which a caller needs one: the matched method's, else its class's, else admin. */
  public static List<String> requiredScopes(ResourceMethod matched) {
    return requiredScopes(matched == null ? null : matched.getInvocable().getHandlingMethod());
  }

  /** The same for a Java method of a resource, or null: what the console asks as the API does. */
  public static List<String> requiredScopes(Method method) {
    AnyScopeOf scopes =
        method == null
            ? null
            : Optional.ofNullable(method.getAnnotation(AnyScopeOf.class))
                .orElse(method.getDeclaringClass().getAnnotation(AnyScopeOf.class));
    return scopes == null ? List.of(ADMIN) : List.of(scopes.value());
  }

  /** The verified caller of the current request. */
  public static Caller caller(ContainerRequestContext request) {
    Object caller = request.getProperty(CALLER);
    if (caller == null) {
      throw new IllegalStateException("an admin resource ran without AdminAuth");
    }
    return (Caller) caller;
  }

  /**
   * Who is calling, and the rules that apply to them: {@code identity:admin} may do everything;
   * anyone else creates, sees and changes only accounts no more powerful than itself: inside its
   * organizations, with scopes it holds itself or that the operator made grantable, never an {@code
   * identity:} scope, and with the service name of one of those scopes, so never {@code identity}.
   *
   * @param grantable scopes grantable beyond the caller's own ({@code service:*} covers the
   *     service)
   */
  public record Caller(
      VerifiedToken token, String remoteAddress, AuditLog audit, List<String> grantable) {
    static final String RESERVED_SERVICE = "identity";

    public boolean isAdmin() {
      return token.hasScope(ADMIN);
    }

    /** Whether the caller holds {@code scope}: what a page offers follows what the API allows. */
    public boolean hasScope(String scope) {
      return token.hasScope(scope);
    }

    /** The organizations of the token: its {@code organization_id} and {@code accessible_orgs}. */
    public List<String> organizations() {
      return Stream.concat(token.organizationId().stream(), token.accessibleOrgs().stream())
          .distinct()
          .toList();
    }

    /** {@code identity:admin}: every organization; otherwise those of the token. */
    boolean mayManage(String organization) {
      return isAdmin() || token.hasOrganization(organization);
    }

    void requireOrganization(String organization) {
      if (!mayManage(organization)) {
        refuse("forbidden", organization);
        throw ApiError.forbidden("The caller has no permission for organization " + organization);
      }
    }

    /**
     * Whether the caller may see and change an account: only one it could have created ({@link
     * #requireMayCreate}), so that a manager can neither take over a more powerful account by
     * rotating its secret nor reach beyond its organizations.
     */
    boolean reaches(ServiceAccount account) {
      return beyondReach(account.profile()).isEmpty();
    }

    /** A non-administrator cannot make an account more powerful than itself: 403 saying why. */
    void requireMayCreate(AccountProfile profile) {
      beyondReach(profile)
          .ifPresent(
              why -> {
                refuse("forbidden", profile.organizationId());
                throw ApiError.forbidden(why);
              });
    }

    /** Why a profile is beyond the caller, or empty when it is within reach. */
    private Optional<String> beyondReach(AccountProfile profile) {
      if (isAdmin()) {
        return Optional.empty();
      }
      Optional<String> foreign =
          Stream.concat(Stream.of(profile.organizationId()), profile.accessibleOrgs().stream())
              .filter(organization -> !mayManage(organization))
              .findFirst();
      if (foreign.isPresent()) {
        return Optional.of("The caller has no permission for organization " + foreign.get());
      }
      if (profile.scopes().stream().anyMatch(Caller::isIdentityScope)) {
        return Optional.of("Only identity:admin may grant identity: scopes");
      }
      Optional<String> above = profile.scopes().stream().filter(s -> !mayGrant(s)).findFirst();
      if (above.isPresent()) {
        return Optional.of(
            "The caller may grant only its own scopes and those of"
                + " identity/managerGrantableScopes, not "
                + above.get());
      }
      if (profile.serviceName().equals(RESERVED_SERVICE)) {
        return Optional.of("Only identity:admin may use the service name identity");
      }
      // The token's primary service (SPEC 2.5) is one the account is granted a scope of,
      // which the checks above made one the caller may grant; never a service of its choosing.
      List<String> services = profile.scopes().stream().map(Caller::serviceOf).distinct().toList();
      if (!services.contains(profile.serviceName())) {
        return Optional.of(
            "Without identity:admin, service_name must be the service of a granted scope ("
                + String.join(", ", services)
                + "), not "
                + profile.serviceName());
      }
      return Optional.empty();
    }

    /** SPEC 2.6: the part of a scope before its colon. */
    private static String serviceOf(String scope) {
      return scope.substring(0, Math.max(scope.indexOf(':'), 0));
    }

    /** A scope the caller holds (outside identity:) or that the operator made grantable. */
    private boolean mayGrant(String scope) {
      return token.scopes().stream()
              .filter(own -> !isIdentityScope(own))
              .anyMatch(own -> Scope.covers(own, scope))
          || grantable.stream().anyMatch(allowed -> Scope.covers(allowed, scope));
    }

    private static boolean isIdentityScope(String scope) {
      return scope.startsWith("identity:");
    }

    /** Makes the audit-trail events of this caller, for the store to persist with its change. */
    AuditEvent.Source events() {
      return audit.source(token.clientId(), remoteAddress);
    }

    /** An event about {@code account}, to be stored with its change. */
    AuditEvent event(String event, ServiceAccount account, Map<String, String> details) {
      return events()
          .event(event, account.clientId().toString(), account.profile().organizationId(), details);
    }

    void audit(String event, String target) {
      audit(event, target, Map.of());
    }

    /** A change, with {@code details} such as a rotation's overlap; never a secret. */
    void audit(String event, String target, Map<String, String> details) {
      audit.record(event, token.clientId(), target, "success", remoteAddress, details);
    }

    /** An account beyond reach: audited as such, answered as {@code answer} (a 404). */
    ApiError outOfReach(String target, ApiError answer) {
      refuse("not_reachable", target);
      return answer;
    }

    private void refuse(String outcome, String target) {
      audit.record("admin.refuse", token.clientId(), target, outcome, remoteAddress);
    }
  }
}
