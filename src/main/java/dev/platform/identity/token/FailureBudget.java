package dev.platform.identity.token;

/**
 * What a refused token request spends of the rate limiter's failure budgets, in the step that
 * checks them, so that no more refusals pass than a budget holds however many requests run at once.
 * The rate-limit filter leaves one per admitted request under {@link #ATTRIBUTE}.
 */
@FunctionalInterface
public interface FailureBudget {
  /** The request attribute that holds the budget of the request the filter admitted. */
  String ATTRIBUTE = FailureBudget.class.getName();

  /** Spends nothing: a request that no limiter admitted (tests, benchmarks). */
  FailureBudget NONE = (refusal, authenticated) -> refusal;

  /**
   * @param authenticated whether the client proved its credentials before it was refused
   * @return {@code refusal}, or the 429 to answer instead when a budget it spends has nothing left
   */
  OAuthError spend(OAuthError refusal, boolean authenticated);
}
