package dev.platform.identity.verify.jaxrs;

import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.ClientPrincipal;
import dev.platform.identity.verify.DpopRequest;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.lang.reflect.Method;
import java.net.URI;
import java.security.Principal;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A JAX-RS filter that lets through only requests whose bearer token {@link BearerVerifier} accepts
 * with the scopes that {@link RequireScopes} asks of what the runtime matched (SPEC 5.4): the
 * resource method and every method it overrides or implements, its class with the superclasses and
 * interfaces, and every resource the request passed through to reach it (a sub-resource locator's
 * class). The scopes of all of them together are required. A request whose match carries no
 * {@code @RequireScopes} anywhere passes unchecked. It runs at {@link Priorities#AUTHENTICATION} on
 * every matched request, and reads the annotations itself rather than relying on name binding,
 * whose rules (interfaces, inherited methods, sub-resources) would leave some annotated methods
 * unchecked or checked with fewer scopes. Register one instance: {@code resourceConfig.register(new
 * BearerTokenFilter(verifier))}.
 *
 * <p>A passed request carries the {@code VerifiedToken} in the property {@link #VERIFIED_TOKEN},
 * and its {@code SecurityContext} has a {@link ClientPrincipal} named for the client id, {@code
 * isUserInRole(scope)} answering {@code VerifiedToken.hasScope(scope)}, the scheme {@code "Bearer"}
 * ({@code "DPoP"} for a DPoP-bound token), and {@code isSecure()} as before. Any other request is
 * aborted with the same answer as the servlet filter's: 401 or 403 with the {@code
 * WWW-Authenticate} challenge and SPEC 7.2's {@code {success: false, message}}, or 503 when the
 * token could not be checked ({@link BearerCheck#of}). Revoked tokens are refused when the verifier
 * was given the issuer's revocation feed ({@code BearerVerifier.Builder.revocations}); the filter
 * has no configuration of its own.
 *
 * <p>The token's binding to the client certificate is checked too (RFC 8705 §3): the certificate is
 * the first of the request property {@link BearerCheck#CERTIFICATE_ATTRIBUTE}, which Jersey on a
 * servlet container reads from the servlet request's attribute of that name (the container's TLS,
 * or a trusted proxy's header through Tomcat's {@code SSLValve}). A token bound to another
 * certificate, or presented without one, is refused with 401 {@code invalid_token}; a verifier
 * built with {@code requireCertificateBinding(true)} refuses unbound tokens too.
 *
 * <p>DPoP (RFC 9449 §7) is taken too, as by the servlet filter: {@code Authorization: DPoP <token>}
 * with one {@code DPoP} header whose proof names the request's method and URI ({@link
 * BearerVerifier#verify(String, DpopRequest, X509Certificate, java.util.Collection)}). The URI is
 * the request URI as the runtime rebuilt it from the {@code Host} header, unless the API's external
 * base URLs are given ({@link #BearerTokenFilter(BearerVerifier, List)}, {@link
 * DpopRequest#target}).
 */
@Priority(Priorities.AUTHENTICATION)
public final class BearerTokenFilter implements ContainerRequestFilter {
  /** The request property that holds the {@code VerifiedToken} of a passed request. */
  public static final String VERIFIED_TOKEN = BearerCheck.VERIFIED_TOKEN;

  /** What a request without a proof names: it is refused for that whatever it names. */
  private static final URI NO_TARGET = URI.create("https://no-dpop-proof.invalid/");

  private final BearerVerifier verifier;
  private final List<URI> dpopBaseUrls;

  @Context private ResourceInfo resource;

  /** A filter that checks tokens with {@code verifier}; DPoP proofs name the request URI. */
  public BearerTokenFilter(BearerVerifier verifier) {
    this(verifier, List.of());
  }

  /**
   * A filter that checks tokens with {@code verifier}, whose DPoP proofs name the request's path
   * under one of {@code dpopBaseUrls} ({@link DpopRequest#target}).
   *
   * @param dpopBaseUrls the API's external base URLs, such as {@code https://api.example.com};
   *     empty for the request URI
   * @throws IllegalArgumentException when a base URL has a path, query or fragment
   */
  public BearerTokenFilter(BearerVerifier verifier, List<URI> dpopBaseUrls) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.dpopBaseUrls = dpopBaseUrls.stream().map(DpopRequest::base).toList();
  }

  @Override
  public void filter(ContainerRequestContext request) {
    Optional<Set<String>> scopes = requiredScopes(request);
    if (scopes.isEmpty()) {
      return; // nothing matched asks for a token
    }
    List<String> headers = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
    X509Certificate certificate =
        BearerCheck.presentedCertificate(request.getProperty(BearerCheck.CERTIFICATE_ATTRIBUTE));
    List<String> proofs = request.getHeaders().get("DPoP");
    DpopRequest dpop =
        proofs == null || proofs.isEmpty()
            ? new DpopRequest(List.of(), request.getMethod(), NO_TARGET)
            : new DpopRequest(
                proofs,
                request.getMethod(),
                DpopRequest.target(dpopBaseUrls, request.getUriInfo().getRequestUri()));
    BearerCheck check =
        BearerCheck.of(
            verifier, headers == null ? List.of() : headers, dpop, certificate, scopes.get());
    if (check instanceof BearerCheck.Passed passed) {
      request.setProperty(VERIFIED_TOKEN, passed.token());
      boolean secure = request.getSecurityContext().isSecure();
      request.setSecurityContext(new TokenSecurity(passed.principal(), secure));
    } else {
      request.abortWith(answer((BearerCheck.Refused) check));
    }
  }

  /**
   * The scopes of every {@link RequireScopes} on what was matched, or empty when there is none (see
   * the class comment). Per class and method, found once.
   */
  private Optional<Set<String>> requiredScopes(ContainerRequestContext request) {
    List<RequireScopes> found = new ArrayList<>();
    Method method = resource.getResourceMethod();
    Class<?> type = resource.getResourceClass();
    if (method != null) {
      found.addAll(METHODS.computeIfAbsent(method, BearerTokenFilter::onMethod));
    }
    if (type != null) {
      found.addAll(TYPES.computeIfAbsent(type, BearerTokenFilter::onType));
    }
    for (Object matched : request.getUriInfo().getMatchedResources()) {
      found.addAll(TYPES.computeIfAbsent(matched.getClass(), BearerTokenFilter::onType));
    }
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Set<String> scopes = new LinkedHashSet<>();
    found.forEach(annotation -> scopes.addAll(List.of(annotation.value())));
    return Optional.of(scopes);
  }

  /** Annotations by method and by class: found once, as reflection over a hierarchy is slow. */
  private static final Map<Method, List<RequireScopes>> METHODS = new ConcurrentHashMap<>();

  private static final Map<Class<?>, List<RequireScopes>> TYPES = new ConcurrentHashMap<>();

  /** On {@code method} and every method of a supertype it overrides or implements. */
  private static List<RequireScopes> onMethod(Method method) {
    List<RequireScopes> found = new ArrayList<>();
    for (Class<?> type : supertypes(method.getDeclaringClass())) {
      try {
        RequireScopes annotation =
            type.getDeclaredMethod(method.getName(), method.getParameterTypes())
                .getAnnotation(RequireScopes.class);
        if (annotation != null) {
          found.add(annotation);
        }
      } catch (NoSuchMethodException e) {
        // this supertype does not declare it
      }
    }
    return List.copyOf(found);
  }

  /** On {@code type}, its superclasses and every interface it implements. */
  private static List<RequireScopes> onType(Class<?> type) {
    return supertypes(type).stream()
        .map(supertype -> supertype.getDeclaredAnnotation(RequireScopes.class))
        .filter(Objects::nonNull)
        .toList();
  }

  /** {@code type}, its superclasses and all their interfaces, each once. */
  private static Set<Class<?>> supertypes(Class<?> type) {
    Set<Class<?>> all = new LinkedHashSet<>();
    List<Class<?>> next = new ArrayList<>(List.of(type));
    while (!next.isEmpty()) {
      Class<?> current = next.remove(0);
      if (current != null && current != Object.class && all.add(current)) {
        next.add(current.getSuperclass());
        next.addAll(List.of(current.getInterfaces()));
      }
    }
    return all;
  }

  private static Response answer(BearerCheck.Refused refused) {
    Response.ResponseBuilder answer = Response.status(refused.status()).entity(refused.body());
    refused.headers().forEach(answer::header);
    return answer.build();
  }

  /** The request's security once its token passed. */
  private record TokenSecurity(ClientPrincipal principal, boolean isSecure)
      implements SecurityContext {
    @Override
    public Principal getUserPrincipal() {
      return principal;
    }

    @Override
    public boolean isUserInRole(String role) {
      return role != null && principal.token().hasScope(role);
    }

    @Override
    public String getAuthenticationScheme() {
      return principal.token().keyThumbprint().isPresent() ? "DPoP" : "Bearer";
    }
  }
}
