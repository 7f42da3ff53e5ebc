package dev.platform.identity.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A request whose bearer token is refused. There are exactly two kinds, and the kind decides the
 * HTTP status of SPEC 7.2: {@link UnauthenticatedException} (401, get a new token) and {@link
 * AccessDeniedException} (403, the token is genuine but not enough). The message is short and safe
 * to send to the client as the {@code message} of {@code {success: false, message}}; it never says
 * which check of a token failed beyond "expired", "revoked" or "invalid". The cause, when there is
 * one, is for the server's log only.
 *
 * <p>No stack trace is taken: these are answers to clients, not failures of the service.
 */
public abstract sealed class BearerTokenException extends RuntimeException
    permits UnauthenticatedException, AccessDeniedException {

  /**
   * The DPoP side of the answer (RFC 9449 §7.1), set by a verification that takes DPoP: the {@code
   * algs} of its challenge, whether the request used the DPoP scheme, and the nonce to give; null
   * algorithms for an answer that knows Bearer alone.
   */
  private String dpopAlgorithms;

  private boolean dpopScheme;
  private String dpopNonce;

  BearerTokenException(String message, Throwable cause) {
    super(message, cause, false, false);
  }

  /**
   * Makes this an answer of a verifier that takes DPoP: its challenge names the DPoP scheme and
   * {@code algorithms}, as the only scheme when {@code scheme} says the request used DPoP, after
   * the Bearer one otherwise; {@code nonce}, when not null, is given as {@code DPoP-Nonce}. Called
   * once, before the exception is thrown, as {@link Throwable#initCause} is.
   */
  BearerTokenException answeredWithDpop(String algorithms, boolean scheme, String nonce) {
    this.dpopAlgorithms = algorithms;
    this.dpopScheme = scheme;
    this.dpopNonce = nonce;
    return this;
  }

  /** The nonce to give in a {@code DPoP-Nonce} header (RFC 9449 §8), if any. */
  public Optional<String> dpopNonce() {
    return Optional.ofNullable(dpopNonce);
  }

  /**
   * The challenge of the scheme the request used, {@code scheme} followed by {@code parameters}
   * (each {@code name="value"}, none when empty); with DPoP, {@code algs} last, and after the
   * Bearer challenge a DPoP one with its {@code algs} alone (RFC 9449 §7.1, RFC 9110 §11.6.1).
   */
  final String challenge(List<String> bearerParameters, List<String> dpopParameters) {
    if (dpopAlgorithms == null) {
      return joined("Bearer", bearerParameters);
    }
    String algs = "algs=\"" + dpopAlgorithms + "\"";
    if (dpopScheme) {
      List<String> all = new ArrayList<>(dpopParameters);
      all.add(algs);
      return joined("DPoP", all);
    }
    return joined("Bearer", bearerParameters) + ", " + joined("DPoP", List.of(algs));
  }

  /**
   * An auth-param's quoted-string value (RFC 9110 §5.6.4): quotes and backslashes escaped, and
   * anything but printable ASCII shown as {@code ?}, so no description can break the header.
   */
  static String quoted(String value) {
    String printable = value.replaceAll("[^\\x20-\\x7e]", "?");
    return "\"" + printable.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String joined(String scheme, List<String> parameters) {
    return parameters.isEmpty() ? scheme : scheme + " " + String.join(", ", parameters);
  }

  /** The HTTP status to answer: 401 or 403. */
  public abstract int status();

  /**
   * The value of the {@code WWW-Authenticate} header to answer with (RFC 6750 §3), such as {@code
   * Bearer error="invalid_token"}.
   */
  public abstract String challenge();
}
