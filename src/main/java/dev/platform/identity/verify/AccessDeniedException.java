package dev.platform.identity.verify;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A genuine token that does not give access to what the request asks for (HTTP 403, SPEC 7.2): a
 * required scope is missing (SPEC 5.4 step 4), or the token's organizations do not include the
 * target organization (SPEC 5.7). Not to be confused with {@code java.nio.file}'s checked exception
 * of the same simple name.
 */
public final class AccessDeniedException extends BearerTokenException {
  static final String NO_ORGANIZATION_ACCESS = "no permission for this organization";

  /** RFC 6750 §3: a {@code scope} attribute holds only %x21 / %x23-5B / %x5D-7E and spaces. */
  private static final Pattern SCOPE_ATTRIBUTE = Pattern.compile("[\\x21\\x23-\\x5B\\x5D-\\x7E]+");

  private final List<String> missingScopes;

  /**
   * A denial naming the scopes the token lacks, if any.
   *
   * @param message short text safe for the client
   * @param missingScopes required scopes the token does not cover; empty for any other reason
   */
  public AccessDeniedException(String message, Collection<String> missingScopes) {
    super(message, null);
    this.missingScopes = List.copyOf(missingScopes);
  }

  /** SPEC 5.4 step 4 failed for {@code missing}, listed in the order they were required. */
  static AccessDeniedException missingScopes(List<String> missing) {
    return new AccessDeniedException(
        "insufficient scope: requires " + String.join(" ", missing), missing);
  }

  /**
   * The required scopes the token does not cover; empty when the denial is about something else.
   */
  public List<String> missingScopes() {
    return missingScopes;
  }

  /** SPEC 7.2: the token is genuine but does not reach what was asked (RFC 6750 §3.1). */
  @Override
  public int status() {
    return 403;
  }

  /**
   * {@code Bearer error="insufficient_scope"}, with {@code scope="..."} naming the missing scopes
   * when there are any and they fit RFC 6750's character set; under the DPoP scheme when the
   * request used it (RFC 9449 §7.1).
   */
  @Override
  public String challenge() {
    List<String> parameters = new ArrayList<>(List.of("error=\"insufficient_scope\""));
    boolean quotable =
        !missingScopes.isEmpty()
            && missingScopes.stream().allMatch(s -> SCOPE_ATTRIBUTE.matcher(s).matches());
    if (quotable) {
      parameters.add("scope=\"" + String.join(" ", missingScopes) + "\"");
    }
    return challenge(parameters, parameters);
  }
}
