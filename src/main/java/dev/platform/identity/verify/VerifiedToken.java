package dev.platform.identity.verify;

import io.jsonwebtoken.Claims;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The claims of a token that passed {@link BearerVerifier}, typed (SPEC 2.5). Only the verifier
 * makes one, so holding a {@code VerifiedToken} means the token was genuine, current and from the
 * configured issuer. Immutable.
 */
public final class VerifiedToken {
  private final String clientId;
  private final String subject;
  private final String issuer;
  private final List<String> scopes;
  private final String organizationId;
  private final List<String> accessibleOrgs;
  private final String tokenType;
  private final ChannelPermissions channelPermissions;
  private final Instant expiresAt;
  private final Instant issuedAt;
  private final String tokenId;

  private VerifiedToken(Claims claims) {
    subject = string(claims, Claims.SUBJECT);
    clientId = Optional.ofNullable(string(claims, "client_id")).orElse(subject);
    if (clientId == null) {
      throw invalid("neither client_id nor sub");
    }
    issuer = claims.getIssuer();
    scopes = strings(claims, "scopes");
    organizationId = string(claims, "organization_id");
    accessibleOrgs = strings(claims, "accessible_orgs");
    tokenType = string(claims, "token_type");
    channelPermissions = channels(claims);
    expiresAt = claims.getExpiration().toInstant();
    issuedAt = Optional.ofNullable(claims.getIssuedAt()).map(Date::toInstant).orElse(null);
    tokenId = claims.getId();
  }

  /**
   * The typed view of verified claims, which have an {@code exp} and an {@code iss}.
   *
   * @throws UnauthenticatedException "invalid token" when a claim has the wrong type, or when
   *     neither {@code client_id} nor {@code sub} is present
   */
  static VerifiedToken from(Claims claims) {
    return new VerifiedToken(claims);
  }

  /** The OAuth client: {@code client_id}, or {@code sub} when a token has no {@code client_id}. */
  public String clientId() {
    return clientId;
  }

  /** {@code sub}: for a service-account token, the OAuth client UUID. */
  public Optional<String> subject() {
    return Optional.ofNullable(subject);
  }

  /** {@code iss}: always the verifier's configured issuer. */
  public String issuer() {
    return issuer;
  }

  /** {@code scopes}: the granted scopes, in the token's order; empty when the claim is absent. */
  public List<String> scopes() {
    return scopes;
  }

  /** {@code organization_id}: the primary organization context. */
  public Optional<String> organizationId() {
    return Optional.ofNullable(organizationId);
  }

  /** {@code accessible_orgs}: every organization the token may act on; empty when absent. */
  public List<String> accessibleOrgs() {
    return accessibleOrgs;
  }

  /**
   * {@code token_type}: {@code service_account}, {@code user}, {@code device} or {@code
   * stream_app}.
   */
  public Optional<String> tokenType() {
    return Optional.ofNullable(tokenType);
  }

  /**
   * {@code channel_permissions}, or its transitional alias {@code cs_permissions} when only that is
   * present (SPEC 2.5); {@link ChannelPermissions#NONE} when neither is.
   */
  public ChannelPermissions channelPermissions() {
    return channelPermissions;
  }

  /** {@code exp}. */
  public Instant expiresAt() {
    return expiresAt;
  }

  /** {@code iat}. */
  public Optional<Instant> issuedAt() {
    return Optional.ofNullable(issuedAt);
  }

  /** {@code jti}: the unique token id. */
  public Optional<String> tokenId() {
    return Optional.ofNullable(tokenId);
  }

  /**
   * Whether a granted scope covers {@code required}: the same scope, or {@code service:*} for
   * {@code service:*} and any {@code service:anything} of the same service (SPEC 2.6). {@code
   * catalog:*} does not cover {@code catalogue:x}.
   */
  public boolean hasScope(String required) {
    Objects.requireNonNull(required, "required");
    return scopes.stream().anyMatch(granted -> covers(granted, required));
  }

  private static boolean covers(String granted, String required) {
    int colon = granted.indexOf(':');
    // Only "service:*" with a non-empty service is a wildcard, and only for "service:...".
    boolean wildcard = colon > 0 && granted.endsWith(":*") && granted.length() == colon + 2;
    return granted.equals(required)
        || (wildcard && required.startsWith(granted.substring(0, colon + 1)));
  }

  /**
   * SPEC 5.4 step 4: every one of {@code required} is covered ({@link #hasScope}).
   *
   * @throws AccessDeniedException naming the scopes that are not covered
   */
  public void requireScopes(Collection<String> required) {
    List<String> missing = required.stream().filter(s -> !hasScope(s)).distinct().toList();
    if (!missing.isEmpty()) {
      throw AccessDeniedException.missingScopes(missing);
    }
  }

  /**
   * SPEC 5.7: whether the token may act on {@code organization}, its {@code organization_id} or one
   * of its {@code accessible_orgs}.
   */
  public boolean hasOrganization(String organization) {
    Objects.requireNonNull(organization, "organization");
    return organization.equals(organizationId) || accessibleOrgs.contains(organization);
  }

  /**
   * SPEC 5.7: the token may act on {@code organization}.
   *
   * @throws AccessDeniedException when it may not ({@link #hasOrganization})
   */
  public void requireOrganization(String organization) {
    if (!hasOrganization(organization)) {
      throw new AccessDeniedException(AccessDeniedException.NO_ORGANIZATION_ACCESS, List.of());
    }
  }

  /** The client and its scopes; never the token itself. */
  @Override
  public String toString() {
    return "VerifiedToken[clientId=" + clientId + ", scopes=" + scopes + "]";
  }

  private static String string(Map<String, ?> claims, String name) {
    Object value = claims.get(name);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw invalid(name + " is not a string");
  }

  private static List<String> strings(Map<String, ?> claims, String name) {
    Object value = claims.get(name);
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list && list.stream().allMatch(String.class::isInstance)) {
      return list.stream().map(String.class::cast).toList();
    }
    throw invalid(name + " is not an array of strings");
  }

  private static ChannelPermissions channels(Claims claims) {
    Object value = claims.getOrDefault("channel_permissions", claims.get("cs_permissions"));
    if (value == null) {
      return ChannelPermissions.NONE;
    }
    if (!(value instanceof Map<?, ?> map)
        || !map.keySet().stream().allMatch(String.class::isInstance)) {
      throw invalid("channel_permissions is not an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> actions = (Map<String, ?>) map;
    return new ChannelPermissions(
        strings(actions, "subscribe"), strings(actions, "publish"), strings(actions, "replay"));
  }

  /** A token whose claims cannot be read is as good as forged: 401, the reason kept for the log. */
  private static UnauthenticatedException invalid(String reason) {
    return UnauthenticatedException.of(
        UnauthenticatedException.INVALID_TOKEN, new IllegalArgumentException("claim " + reason));
  }
}
