package dev.platform.identity.token;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.key.CurrentKey;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.key.RsaProvider;
import dev.platform.identity.scope.ChannelPermissions;
import dev.platform.identity.scope.GrantedScopes;
import io.jsonwebtoken.Jwts;
import java.net.URI;
import java.security.Provider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Builds the claims of SPEC 2.5 and signs them with the key ring's current key (RS256). */
public final class TokenIssuer {
  /** SPEC 2.5 {@code version}: the token format, raised when the claims change. */
  static final int VERSION = 1;

  static final String SERVICE_ACCOUNT = "service_account";

  private final URI issuer;
  private final Duration lifetime;
  private final KeyRing keys;
  private final Provider provider;
  private final Clock clock;

  /**
   * @param rsa the provider the key ring imported its private keys into; JJWT signs through it
   */
  public TokenIssuer(URI issuer, Duration lifetime, KeyRing keys, RsaProvider rsa, Clock clock) {
    this.issuer = issuer;
    this.lifetime = lifetime;
    this.keys = keys;
    this.provider = rsa.provider().orElse(null);
    this.clock = clock;
  }

  /** A signed access token for {@code account} carrying the granted {@code scopes}. */
  IssuedToken issue(ServiceAccount account, GrantedScopes granted) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    Instant expiry = now.plus(lifetime);
    CurrentKey key = keys.current();
    String clientId = account.clientId().toString();
    List<String> scopes = granted.scopes();
    Map<String, List<String>> channelClaim = channelClaim(granted.channels());
    String jwt =
        Jwts.builder()
            .provider(provider)
            .header()
            .type("JWT")
            .keyId(key.kid())
            .and()
            .issuer(issuer.toString())
            .audience()
            .single("*")
            .subject(clientId)
            .id(UUID.randomUUID().toString())
            .issuedAt(Date.from(now))
            .notBefore(Date.from(now))
            .expiration(Date.from(expiry))
            .claim("token_type", SERVICE_ACCOUNT)
            .claim("client_id", clientId)
            .claim("service_name", account.serviceName())
            .claim("scopes", scopes)
            .claim("permissions", scopes)
            // RFC 9068 §2.2.3: standard resource servers read "scope" by default.
            .claim("scope", granted.spaceSeparated())
            .claim("organization_id", account.organizationId())
            .claim("accessible_orgs", account.accessibleOrgs())
            .claim("version", VERSION)
            .claim("channel_permissions", channelClaim)
            // SPEC 2.5: the transitional alias carries an identical value.
            .claim("cs_permissions", channelClaim)
            .signWith(key.privateKey(), Jwts.SIG.RS256)
            .compact();
    return new IssuedToken(jwt, now, expiry, granted);
  }

  private static Map<String, List<String>> channelClaim(ChannelPermissions channels) {
    Map<String, List<String>> claim = new LinkedHashMap<>();
    claim.put("subscribe", channels.subscribe());
    claim.put("publish", channels.publish());
    claim.put("replay", channels.replay());
    return claim;
  }

  /** A signed token, when it was issued and expires, and what it grants. */
  record IssuedToken(String value, Instant issuedAt, Instant expiresAt, GrantedScopes granted) {}
}
