package dev.platform.identity.verify.jaxrs;

import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.ClientPrincipal;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.lang.reflect.AnnotatedElement;
import java.security.Principal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A JAX-RS filter that lets through only requests whose bearer token {@link BearerVerifier} accepts
 * with the scopes that {@link RequireScopes} asks of the matched resource class and method (SPEC
 * 5.4). It runs for those resources only, at {@link Priorities#AUTHENTICATION}. Register one
 * instance: {@code resourceConfig.register(new BearerTokenFilter(verifier))}.
 *
 * <p>A passed request carries the {@code VerifiedToken} in the property {@link #VERIFIED_TOKEN},
 * and its {@code SecurityContext} has a {@link ClientPrincipal} named for the client id, {@code
 * isUserInRole(scope)} answering {@code VerifiedToken.hasScope(scope)}, the scheme {@code
 * "Bearer"}, and {@code isSecure()} as before. Any other request is aborted with the same answer as
 * the servlet filter's: 401 or 403 with the {@code WWW-Authenticate} challenge and SPEC 7.2's
 * {@code {success: false, message}}, or 503 when the token could not be checked ({@link
 * BearerCheck#of}).
 */
@RequireScopes
@Priority(Priorities.AUTHENTICATION)
public final class BearerTokenFilter implements ContainerRequestFilter {
  /** The request property that holds the {@code VerifiedToken} of a passed request. */
  public static final String VERIFIED_TOKEN = BearerCheck.VERIFIED_TOKEN;

  private final BearerVerifier verifier;

  @Context private ResourceInfo resource;

  /** A filter that checks tokens with {@code verifier}. */
  public BearerTokenFilter(BearerVerifier verifier) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
  }

  @Override
  public void filter(ContainerRequestContext request) {
    List<String> headers = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
    BearerCheck check =
        BearerCheck.of(verifier, headers == null ? List.of() : headers, requiredScopes());
    if (check instanceof BearerCheck.Passed passed) {
      request.setProperty(VERIFIED_TOKEN, passed.token());
      boolean secure = request.getSecurityContext().isSecure();
      request.setSecurityContext(new TokenSecurity(passed.principal(), secure));
    } else {
      request.abortWith(answer((BearerCheck.Refused) check));
    }
  }

  /** The scopes of the matched class and method together (see {@link RequireScopes}). */
  private Set<String> requiredScopes() {
    Set<String> scopes = new LinkedHashSet<>();
    Stream.of(resource.getResourceClass(), resource.getResourceMethod())
        .filter(Objects::nonNull)
        .map((AnnotatedElement element) -> element.getAnnotation(RequireScopes.class))
        .filter(Objects::nonNull)
        .forEach(annotation -> scopes.addAll(List.of(annotation.value())));
    return scopes;
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
      return "Bearer";
    }
  }
}
