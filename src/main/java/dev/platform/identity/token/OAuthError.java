package dev.platform.identity.token;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * An error of the token endpoint (SPEC 7.1, RFC 6749 §5.2), carrying its wire fields; {@link
 * TokenAnswer} writes it. The description is kept within RFC 6749's character set for {@code
 * error_description}, so any text may be passed in. No stack trace is taken: these are answers to
 * clients, not failures of the service.
 */
public final class OAuthError extends RuntimeException {
  /** A required parameter is missing or repeated, or the request is otherwise malformed. */
  public static final String INVALID_REQUEST = "invalid_request";

  /** Client authentication failed: unknown client, wrong secret, revoked, unsupported method. */
  static final String INVALID_CLIENT = "invalid_client";

  /** A requested scope is not allowed for the client, malformed or unknown. */
  static final String INVALID_SCOPE = "invalid_scope";

  /** A grant type other than {@code client_credentials}. */
  static final String UNSUPPORTED_GRANT_TYPE = "unsupported_grant_type";

  /** RFC 9449 §5: the DPoP proof is missing where required, malformed, or fails a check. */
  static final String INVALID_DPOP_PROOF = "invalid_dpop_proof";

  /** RFC 9449 §8: the DPoP proof must carry the nonce of the {@code DPoP-Nonce} header. */
  public static final String USE_DPOP_NONCE = "use_dpop_nonce";

  /** SPEC 7.1: more token requests than the limit allows. */
  static final String RATE_LIMIT_EXCEEDED = "rate_limit_exceeded";

  /** RFC 6749 §5.2: {@code error} and {@code error_description} use %x20-21 / %x23-5B / %x5D-7E. */
  private static final Pattern ERROR_CODE = Pattern.compile("[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]+");

  private static final int MAX_DESCRIPTION = 500;

  private final int status;
  private final String error;
  private final String description;
  private final boolean basicChallenge;
  private final OptionalLong retryAfterSeconds;

  /**
   * An error with any status, such as 405 for a method other than POST.
   *
   * @param description free text; characters outside RFC 6749's set are replaced
   */
  public OAuthError(int status, String error, String description) {
    this(status, error, description, false, OptionalLong.empty());
  }

  private OAuthError(
      int status,
      String error,
      String description,
      boolean basicChallenge,
      OptionalLong retryAfterSeconds) {
    super(error, null, false, false);
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("an OAuth error needs a 4xx or 5xx status: " + status);
    }
    if (!ERROR_CODE.matcher(error).matches()) {
      throw new IllegalArgumentException("not an RFC 6749 error code: " + error);
    }
    this.status = status;
    this.error = error;
    this.description = sanitize(description);
    this.basicChallenge = basicChallenge;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** 400 {@code invalid_request}. */
  public static OAuthError invalidRequest(String description) {
    return new OAuthError(400, INVALID_REQUEST, description);
  }

  /**
   * 401 {@code invalid_client}. RFC 6749 §5.2: when the client tried the Authorization header, the
   * answer challenges it with {@code WWW-Authenticate: Basic}.
   *
   * @param usedBasic whether the request carried an Authorization header
   */
  static OAuthError invalidClient(String description, boolean usedBasic) {
    return new OAuthError(401, INVALID_CLIENT, description, usedBasic, OptionalLong.empty());
  }

  /** 400 {@code invalid_scope}. */
  public static OAuthError invalidScope(String description) {
    return new OAuthError(400, INVALID_SCOPE, description);
  }

  /** 400 {@code unsupported_grant_type}. */
  static OAuthError unsupportedGrantType(String description) {
    return new OAuthError(400, UNSUPPORTED_GRANT_TYPE, description);
  }

  /** 400 {@code invalid_dpop_proof} (RFC 9449 §5). */
  static OAuthError invalidDpopProof(String description) {
    return new OAuthError(400, INVALID_DPOP_PROOF, description);
  }

  /** 400 {@code use_dpop_nonce} (RFC 9449 §8): the answer carries the nonce to use. */
  static OAuthError useDpopNonce(String description) {
    return new OAuthError(400, USE_DPOP_NONCE, description);
  }

  /**
   * 429 {@code rate_limit_exceeded}; the body's {@code retry_after} and the {@code Retry-After}
   * header say how long to wait, in whole seconds rounded up, at least 1.
   */
  public static OAuthError rateLimitExceeded(String description, Duration retryAfter) {
    long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    return new OAuthError(429, RATE_LIMIT_EXCEEDED, description, false, OptionalLong.of(seconds));
  }

  public int status() {
    return status;
  }

  /** The {@code error} code. */
  public String error() {
    return error;
  }

  /** The {@code error_description}, within RFC 6749's character set. */
  String description() {
    return description;
  }

  /** Whether the answer carries {@code WWW-Authenticate: Basic} (a 401 to a Basic request). */
  boolean basicChallenge() {
    return basicChallenge && status == 401;
  }

  /** Seconds to wait before retrying, for a 429. */
  OptionalLong retryAfterSeconds() {
    return retryAfterSeconds;
  }

  @Override
  public String getMessage() {
    return error + ": " + description;
  }

  /**
   * Keeps text within %x20-21 / %x23-5B / %x5D-7E: {@code "} becomes {@code '}, {@code \} becomes
   * {@code /}, control characters become a space, anything else (non-ASCII) {@code ?}; long text is
   * cut.
   */
  static String sanitize(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .limit(MAX_DESCRIPTION + 1L)
        .forEach(c -> out.append(c == '"' ? '\'' : c == '\\' ? '/' : allowed(c)));
    if (out.length() > MAX_DESCRIPTION) {
      out.setLength(MAX_DESCRIPTION - 3);
      out.append("...");
    }
    return out.toString();
  }

  private static char allowed(int c) {
    if (c >= 0x20 && c <= 0x7E) {
      return (char) c;
    }
    return Character.isISOControl(c) ? ' ' : '?';
  }
}
