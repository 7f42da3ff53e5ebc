package dev.platform.identity.verify;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
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
  private final String certificateThumbprint;
  private final String keyThumbprint;

  private VerifiedToken(TokenClaims claims) {
    subject = claims.subject;
    clientId = claims.clientId != null ? claims.clientId : subject;
    issuer = claims.issuer;
    scopes = claims.scopes;
    organizationId = claims.organizationId;
    accessibleOrgs = claims.accessibleOrgs;
    tokenType = claims.tokenType;
    channelPermissions =
        Objects.requireNonNullElse(
            claims.channelPermissionsNamed ? claims.channelPermissions : claims.channelAlias,
            ChannelPermissions.NONE);
    expiresAt = Instant.ofEpochSecond(claims.expiresAt);
    issuedAt = claims.issuedAt == null ? null : Instant.ofEpochSecond(claims.issuedAt);
    tokenId = claims.tokenId;
    certificateThumbprint = claims.certificateThumbprint;
    keyThumbprint = claims.keyThumbprint;
  }

  /** The typed view of verified claims, which have an {@code exp}, an {@code iss} and a client. */
  static VerifiedToken from(TokenClaims claims) {
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
   * {@code cnf.x5t#S256}: the {@link CertificateThumbprint} of the client certificate the token is
   * bound to (RFC 8705 §3.1); empty for an unbound token. {@link BearerVerifier} has checked it
   * against the request's certificate already.
   */
  public Optional<String> certificateThumbprint() {
    return Optional.ofNullable(certificateThumbprint);
  }

  /**
   * {@code cnf.jkt}: the JWK SHA-256 thumbprint (RFC 7638) of the key the token is bound to (RFC
   * 9449 §6.1), whose DPoP proof must come with every use; empty for a token not bound so. {@link
   * BearerVerifier} has checked the request's proof against it already.
   */
  public Optional<String> keyThumbprint() {
    return Optional.ofNullable(keyThumbprint);
  }

  /**
   * Whether a granted scope covers {@code required}: the same scope, or {@code service:*} for
   * {@code service:*} and any {@code service:anything} of the same service (SPEC 2.6). {@code
   * catalog:*} does not cover {@code catalogue:x}.
   */
  public boolean hasScope(String required) {
    Objects.requireNonNull(required, "required");
    for (String granted : scopes) { // a loop, not a stream: this runs on every request
      if (covers(granted, required)) {
        return true;
      }
    }
    return false;
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
    for (String scope : required) {
      if (!hasScope(scope)) {
        throw AccessDeniedException.missingScopes(
            required.stream().filter(s -> !hasScope(s)).distinct().toList());
      }
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
}
