package dev.platform.identity.token;

import dev.platform.identity.scope.ChannelPermissions;
import java.util.List;

/**
 * The payload of an access token (SPEC 2.5), claim by claim in this order; component names become
 * snake_case claim names. Serialized by Jackson into the payload that {@code TokenIssuer} signs
 * itself, so a token costs one record and no claims map.
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
 * @param version the token format ({@link TokenIssuer#VERSION})
 * @param channelPermissions the channel patterns per action
 * @param csPermissions SPEC 2.5's transitional alias: an identical value
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
    ChannelPermissions channelPermissions,
    ChannelPermissions csPermissions) {}
