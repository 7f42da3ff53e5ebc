package dev.platform.identity.verify;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One request's bearer check as an HTTP filter needs it: either the request {@link Passed}, with
 * its token, or it is {@link Refused}, with the whole answer to send. The ready-made filters
 * ({@code verify.servlet}, {@code verify.jaxrs}) share it, so they answer alike; a filter for
 * another framework can use it too.
 */
public sealed interface BearerCheck permits BearerCheck.Passed, BearerCheck.Refused {
  /**
   * The request attribute (servlet) or property (JAX-RS) under which a filter leaves the {@link
   * VerifiedToken}. On a servlet container a JAX-RS property is a request attribute, so both
   * filters use this one name.
   */
  String VERIFIED_TOKEN = "dev.platform.identity.verify.VerifiedToken";

  /**
   * The servlet request attribute (the Servlet specification's SSL attributes; a JAX-RS property on
   * a servlet container) that holds the client's certificate chain, {@code X509Certificate[]} with
   * the client's first, as the container's TLS or a trusted proxy's header (Tomcat's {@code
   * SSLValve}) set it.
   */
  String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";

  /**
   * The client's certificate in the value of {@link #CERTIFICATE_ATTRIBUTE}: the first of the
   * chain; null when there is none or the value is of another type.
   */
  static X509Certificate presentedCertificate(Object attribute) {
    return attribute instanceof X509Certificate[] chain && chain.length > 0 ? chain[0] : null;
  }

  /**
   * Checks a request's {@code Authorization} headers with {@code verifier}.
   *
   * <p>More than one header is refused with 401, whatever they hold: which of them a server or
   * proxy would read is not ours to guess. An exception of the verifier other than a {@link
   * BearerTokenException}, such as a key source that cannot be reached ({@link PublicKeyLocator}),
   * is no verdict on the token: it answers 503, never 401, so the client does not throw away a good
   * token, and it is logged with its cause at WARNING; a {@link StaleKeySetException} or {@link
   * StaleRevocationsException} is not logged here, since {@link RemotePublicKeys} and {@link
   * RevocationFeed} warn of it at most once a minute.
   *
   * @param verifier the verifier
   * @param authorizationHeaders the values of every {@code Authorization} header, in order; empty
   *     when there is none
   * @param requiredScopes scopes the request needs, all of them; may be empty
   */
  static BearerCheck of(
      BearerVerifier verifier,
      List<String> authorizationHeaders,
      Collection<String> requiredScopes) {
    return of(verifier, authorizationHeaders, null, requiredScopes);
  }

  /**
   * Checks a request's {@code Authorization} headers with {@code verifier}, as {@link
   * #of(BearerVerifier, List, Collection)} does, and the token's binding to the request's client
   * certificate (RFC 8705 §3, {@link BearerVerifier#verify(String, X509Certificate, Collection)}).
   *
   * @param certificate the client's certificate ({@link #presentedCertificate}), null when it
   *     presented none
   */
  static BearerCheck of(
      BearerVerifier verifier,
      List<String> authorizationHeaders,
      X509Certificate certificate,
      Collection<String> requiredScopes) {
    return of(verifier, authorizationHeaders, null, certificate, requiredScopes);
  }

  /**
   * Checks a request that may use DPoP (RFC 9449 §7), as {@link #of(BearerVerifier, List,
   * X509Certificate, Collection)} does, with its proof ({@link BearerVerifier#verify(String,
   * DpopRequest, X509Certificate, Collection)}): every 401 and 403 names the DPoP scheme in its
   * challenge too, and gives the current nonce in {@code DPoP-Nonce} when the verifier asks for
   * nonces.
   *
   * @param dpop the request's {@code DPoP} headers, method and URI; null for a check that takes
   *     Bearer alone, as the other overloads do
   */
  static BearerCheck of(
      BearerVerifier verifier,
      List<String> authorizationHeaders,
      DpopRequest dpop,
      X509Certificate certificate,
      Collection<String> requiredScopes) {
    if (authorizationHeaders.size() > 1) {
      UnauthenticatedException repeated = new UnauthenticatedException(Refused.REPEATED_HEADER);
      return Refused.of(dpop == null ? repeated : verifier.answered(repeated, false));
    }
    String header = authorizationHeaders.isEmpty() ? null : authorizationHeaders.get(0);
    try {
      return new Passed(
          dpop == null
              ? verifier.verify(header, certificate, requiredScopes)
              : verifier.verify(header, dpop, certificate, requiredScopes));
    } catch (BearerTokenException e) {
      return Refused.of(e);
    } catch (StaleKeySetException | StaleRevocationsException e) {
      // RemotePublicKeys and RevocationFeed warn of it once a minute, not per request.
      return Refused.unavailable();
    } catch (RuntimeException e) {
      System.getLogger(BearerCheck.class.getName())
          .log(System.Logger.Level.WARNING, "a bearer token could not be checked; answered 503", e);
      return Refused.unavailable();
    }
  }

  /**
   * The token is genuine, current, from the issuer and covers the required scopes.
   *
   * @param token the verified token
   */
  record Passed(VerifiedToken token) implements BearerCheck {
    public Passed {
      Objects.requireNonNull(token, "token");
    }

    /** The principal a filter gives the request: named for the token's client id. */
    public ClientPrincipal principal() {
      return new ClientPrincipal(token);
    }
  }

  /**
   * The answer that refuses the request: 401 or 403 with the exception's RFC 6750 challenge (and
   * RFC 9449 §7.1's, with its {@code DPoP-Nonce} when there is one), or 503 when the token could
   * not be checked. The body is SPEC 7.2's {@code {success: false, message}}, the headers {@code
   * Content-Type: application/json} and {@code Cache-Control: no-store}.
   *
   * @param status the HTTP status
   * @param headers the headers to set, each with one value, in order
   * @param body the JSON body
   */
  record Refused(int status, Map<String, String> headers, String body) implements BearerCheck {
    static final String REPEATED_HEADER = "more than one Authorization header";
    static final String UNAVAILABLE = "the token cannot be checked now: try again later";

    public Refused {
      headers = Map.copyOf(headers);
      Objects.requireNonNull(body, "body");
    }

    /** 401 or 403, with the exception's challenge and message (SPEC 7.2, RFC 6750 §3). */
    public static Refused of(BearerTokenException e) {
      Refused answer = answer(e.status(), e.challenge(), e.getMessage());
      if (e.dpopNonce().isEmpty()) {
        return answer;
      }
      Map<String, String> headers = new LinkedHashMap<>(answer.headers());
      headers.put("DPoP-Nonce", e.dpopNonce().get());
      return new Refused(answer.status(), headers, answer.body());
    }

    /** 503: the verifier failed without a verdict on the token; no challenge. */
    public static Refused unavailable() {
      return answer(503, null, UNAVAILABLE);
    }

    private static Refused answer(int status, String challenge, String message) {
      Map<String, String> headers = new LinkedHashMap<>();
      if (challenge != null) {
        headers.put("WWW-Authenticate", challenge);
      }
      headers.put("Content-Type", "application/json");
      headers.put("Cache-Control", "no-store");
      String quoted = new String(JsonStringEncoder.getInstance().quoteAsString(message));
      return new Refused(status, headers, "{\"success\":false,\"message\":\"" + quoted + "\"}");
    }
  }
}
