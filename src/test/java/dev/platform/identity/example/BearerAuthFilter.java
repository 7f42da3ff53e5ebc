package dev.platform.identity.example;

import dev.platform.identity.verify.BearerTokenException;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import dev.platform.identity.verify.VerifiedToken;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The README's example (compiled here so it stays true): a JAX-RS filter that protects another
 * platform API with this service's tokens, answering SPEC 7.2 errors. Register one instance per set
 * of required scopes, e.g. {@code new BearerAuthFilter(issuer, List.of("catalog:products.view"))}.
 */
public final class BearerAuthFilter implements ContainerRequestFilter {
  /** The property under which resources find the verified token. */
  public static final String TOKEN = "verified.token";

  private final BearerVerifier verifier;
  private final List<String> requiredScopes;

  public BearerAuthFilter(String issuer, List<String> requiredScopes) {
    this.verifier =
        BearerVerifier.builder()
            .issuer(issuer)
            .keyLocator(RemotePublicKeys.builder().issuer(URI.create(issuer)).build())
            .build();
    this.requiredScopes = List.copyOf(requiredScopes);
  }

  @Override
  public void filter(ContainerRequestContext request) {
    try {
      VerifiedToken token =
          verifier.verify(request.getHeaderString(HttpHeaders.AUTHORIZATION), requiredScopes);
      request.setProperty(TOKEN, token);
    } catch (BearerTokenException e) {
      // SPEC 7.2: {success:false, message}; 401 or 403 with the RFC 6750 challenge.
      request.abortWith(
          Response.status(e.status())
              .header(HttpHeaders.WWW_AUTHENTICATE, e.challenge())
              .type(MediaType.APPLICATION_JSON_TYPE)
              .entity(Map.of("success", false, "message", e.getMessage()))
              .build());
    }
  }
}
