package dev.platform.identity.token;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.scope.ChannelGrant;
import dev.platform.identity.scope.GrantedScopes;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The payload of an access token (SPEC 2.5), claim by claim in this order; component names become
 * snake_case claim names. Serialized by Jackson into the payload that {@code TokenIssuer} signs
 * itself, so a token costs one record and no claims map. Built by {@link #of}, which fills each of
 * SPEC 2.5's aliases from one value.
 *
 * @param iss the issuer URL
 * @param aud always {@code *} (a string, not an array)
 * @param sub the client_id
 * @param jti a random UUID
 * @param iat issued at, Unix seconds
 * @param nbf not before, Unix seconds (equal to {@code iat})
 * @param exp expiry, Unix seconds
 * @param tokenType always {@code service_account}
 * @param clientId the client_id
 * @param serviceName the account's primary service
 * @param scopes the granted scopes
 * @param permissions the same as {@code scopes}, kept for compatibility
 * @param scope the granted scopes space-separated (RFC 9068 §2.2.3: what standard resource servers
 *     read)
 * @param organizationId the account's primary organization
 * @param accessibleOrgs every organization the account may act in
 * @param version the token format ({@link #VERSION})
 * @param channelPermissions the channel patterns per action
 * @param csPermissions SPEC 2.5's transitional alias: an identical value
 * @param cnf what the token is bound to: the certificate (RFC 8705 §3.1) of a client that
 *     authenticated with one or asked for binding, the DPoP key (RFC 9449 §6.1) of a request that
 *     carried a proof, or both; absent otherwise
 */
record AccessTokenClaims(
    String iss,
    String aud,
    String sub,
    String jti,
    long iat,
    long nbf,
    long exp,
    String tokenType,
    String clientId,
    String serviceName,
    List<String> scopes,
    List<String> permissions,
    String scope,
    String organizationId,
    List<String> accessibleOrgs,
    int version,
    ChannelGrant channelPermissions,
    ChannelGrant csPermissions,
    @JsonInclude(JsonInclude.Include.NON_NULL) Confirmation cnf) {
  /** SPEC 2.5 {@code aud}: always {@code *}. */
  static final String AUDIENCE = "*";

  /** SPEC 2.5 {@code token_type} of every token this service issues. */
  static final String SERVICE_ACCOUNT = "service_account";

  /** SPEC 2.5 {@code version}: the token format, raised when the claims change. */
  static final int VERSION = 1;

  /**
   * The token's binding: RFC 8705 §3.1's SHA-256 thumbprint of the client's certificate, RFC 9449
   * §6.1's JWK SHA-256 thumbprint of its DPoP key; each present or absent.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Confirmation(@JsonProperty("x5t#S256") String x5tS256, String jkt) {
    /** Null when the token is bound to nothing. */
    static Confirmation of(Binding binding) {
      return binding.certificate().isEmpty() && binding.dpopKey().isEmpty()
          ? null
          : new Confirmation(binding.certificate().orElse(null), binding.dpopKey().orElse(null));
    }
  }

  /**
   * What a token is bound to.
   *
   * @param certificate the {@code x5t#S256} of a client certificate, if any
   * @param dpopKey the {@code jkt} of a DPoP proof's key, if any
   */
  record Binding(Optional<String> certificate, Optional<String> dpopKey) {
    static final Binding NONE = new Binding(Optional.empty(), Optional.empty());
  }

  /**
   * As {@link #of(URI, ServiceAccount, GrantedScopes, String, Instant, Instant, Binding)}, unbound.
   */
  static AccessTokenClaims of(
      URI issuer,
      ServiceAccount account,
      GrantedScopes granted,
      String jti,
      Instant issuedAt,
      Instant expiresAt) {
    return of(issuer, account, granted, jti, issuedAt, expiresAt, Binding.NONE);
  }

  /**
   * The claims of a token for {@code account} carrying {@code granted}, valid from {@code issuedAt}
   * ({@code iat} and {@code nbf}) until {@code expiresAt}. The SPEC 2.5 aliases are filled here and
   * nowhere else: {@code sub} and {@code client_id}, {@code scopes} and {@code permissions}, {@code
   * channel_permissions} and {@code cs_permissions}. The token is bound ({@code cnf}) as {@code
   * binding} says.
   */
  static AccessTokenClaims of(
      URI issuer,
      ServiceAccount account,
      GrantedScopes granted,
      String jti,
      Instant issuedAt,
      Instant expiresAt,
      Binding binding) {
    String clientId = account.clientId().toString();
    List<String> scopes = granted.scopes();
    ChannelGrant channels = granted.channels();
    return new AccessTokenClaims(
        issuer.toString(),
        AUDIENCE,
        clientId,
        jti,
        issuedAt.getEpochSecond(),
        issuedAt.getEpochSecond(),
        expiresAt.getEpochSecond(),
        SERVICE_ACCOUNT,
        clientId,
        account.serviceName(),
        scopes,
        scopes,
        granted.spaceSeparated(),
        account.organizationId(),
        account.accessibleOrgs(),
        VERSION,
        channels,
        channels,
        Confirmation.of(binding));
  }
}
