package dev.platform.identity.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.CertificateSubject;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.audit.CallerText;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.scope.ScopeCatalog;
import dev.platform.identity.text.ShownText;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** The body of {@code POST /service-accounts} (ADMIN.md), checked field by field. */
public record NewAccount(
    @JsonProperty("name") String name,
    @JsonProperty("organization_id") String organizationId,
    @JsonProperty("scopes") List<String> scopes,
    @JsonProperty("accessible_orgs") List<String> accessibleOrgs,
    @JsonProperty("service_name") String serviceName,
    @JsonProperty("token_endpoint_auth_method") String tokenEndpointAuthMethod,
    @JsonProperty("jwks") JsonNode jwks,
    @JsonProperty("jwks_uri") String jwksUri,
    @JsonProperty("tls_client_auth_subject_dn") String tlsClientAuthSubjectDn,
    @JsonProperty("tls_client_auth_san_dns") String tlsClientAuthSanDns,
    @JsonProperty("tls_client_auth_san_uri") String tlsClientAuthSanUri,
    @JsonProperty("tls_client_auth_san_ip") String tlsClientAuthSanIp,
    @JsonProperty("tls_client_auth_san_email") String tlsClientAuthSanEmail,
    @JsonProperty("tls_client_certificate_bound_access_tokens")
        Boolean tlsClientCertificateBoundAccessTokens,
    @JsonProperty("dpop_bound_access_tokens") Boolean dpopBoundAccessTokens) {

  static final int MAX_NAME = 200;
  static final int MAX_ORGS = 50;
  static final int MAX_SCOPES = 100;

  /** The scopes column (V1): the names joined by spaces must fit it. */
  static final int MAX_SCOPES_TEXT = 4000;

  static final List<String> METHODS =
      List.of(
          ServiceAccount.CLIENT_SECRET_BASIC,
          ServiceAccount.CLIENT_SECRET_POST,
          ServiceAccount.PRIVATE_KEY_JWT,
          ServiceAccount.TLS_CLIENT_AUTH,
          ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH);

  static final Pattern SERVICE = Pattern.compile("[a-z0-9_-]{1,100}");

  /** A secret account over HTTP Basic, as the console creates one. */
  public NewAccount(
      String name,
      String organizationId,
      List<String> scopes,
      List<String> accessibleOrgs,
      String serviceName) {
    this(name, organizationId, scopes, accessibleOrgs, serviceName, null, null, null);
  }

  /** An account of {@code method}, with its keys where it has some. */
  public NewAccount(
      String name,
      String organizationId,
      List<String> scopes,
      List<String> accessibleOrgs,
      String serviceName,
      String method,
      JsonNode jwks,
      String jwksUri) {
    this(
        name,
        organizationId,
        scopes,
        accessibleOrgs,
        serviceName,
        method,
        jwks,
        jwksUri,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  /** RFC 7591 §2: how the account will authenticate; unset, with a secret over HTTP Basic. */
  String method() {
    if (tokenEndpointAuthMethod == null) {
      return ServiceAccount.CLIENT_SECRET_BASIC;
    }
    if (!METHODS.contains(tokenEndpointAuthMethod)) {
      throw ApiError.badRequest(
          "token_endpoint_auth_method must be client_secret_basic, client_secret_post,"
              + " private_key_jwt, tls_client_auth or self_signed_tls_client_auth");
    }
    return tokenEndpointAuthMethod;
  }

  /**
   * The keys of a private_key_jwt or self_signed_tls_client_auth account, or a 400; empty for a
   * secret account, which must not be given any.
   */
  Optional<ServiceAccount.Keys> keys(NewKeys.UriPolicy policy) {
    NewKeys keys = new NewKeys(jwks, jwksUri);
    String method = method();
    if (!method.equals(ServiceAccount.PRIVATE_KEY_JWT)
        && !method.equals(ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH)) {
      if (keys.given()) {
        throw ApiError.badRequest(
            "jwks and jwks_uri are only for token_endpoint_auth_method private_key_jwt or"
                + " self_signed_tls_client_auth");
      }
      return Optional.empty();
    }
    return Optional.of(keys.checked(method, policy));
  }

  /**
   * The subject of a tls_client_auth account (RFC 8705 §2.1.2), exactly one of the five forms, or a
   * 400; empty for an account of another method, which must not be given any.
   *
   * @param authoritiesConfigured whether the server has CAs such a client's certificate can chain
   *     to ({@code identity/tlsClientCaFile}): without, the account could never authenticate
   */
  Optional<CertificateSubject> subject(boolean authoritiesConfigured) {
    Map<CertificateSubject.Kind, String> given = new EnumMap<>(CertificateSubject.Kind.class);
    putIfGiven(given, CertificateSubject.Kind.SUBJECT_DN, tlsClientAuthSubjectDn);
    putIfGiven(given, CertificateSubject.Kind.SAN_DNS, tlsClientAuthSanDns);
    putIfGiven(given, CertificateSubject.Kind.SAN_URI, tlsClientAuthSanUri);
    putIfGiven(given, CertificateSubject.Kind.SAN_IP, tlsClientAuthSanIp);
    putIfGiven(given, CertificateSubject.Kind.SAN_EMAIL, tlsClientAuthSanEmail);
    if (!method().equals(ServiceAccount.TLS_CLIENT_AUTH)) {
      if (!given.isEmpty()) {
        throw ApiError.badRequest(
            given.keySet().iterator().next().metadataName()
                + " is only for token_endpoint_auth_method tls_client_auth");
      }
      return Optional.empty();
    }
    if (given.size() != 1) {
      throw ApiError.badRequest(
          "a tls_client_auth account needs exactly one of "
              + String.join(", ", CertificateSubject.Kind.metadataNames())
              + (given.isEmpty() ? "" : "; " + given.size() + " were given"));
    }
    if (!authoritiesConfigured) {
      throw ApiError.badRequest(
          "tls_client_auth needs the CAs its certificates chain to, and this server has none:"
              + " its operator sets identity/tlsClientCaFile (docs/mutual-tls.md)");
    }
    var entry = given.entrySet().iterator().next();
    try {
      return Optional.of(CertificateSubject.registered(entry.getKey(), entry.getValue()));
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(entry.getKey().metadataName() + " " + e.getMessage());
    }
  }

  private static void putIfGiven(
      Map<CertificateSubject.Kind, String> given, CertificateSubject.Kind kind, String value) {
    if (value != null) {
      given.put(kind, value);
    }
  }

  /**
   * RFC 8705 §3.4: whether a secret or private_key_jwt account's tokens are to be bound to its
   * connection's certificate; a certificate account's always are, and may not be registered
   * otherwise.
   */
  boolean bindsTokens() {
    String method = method();
    boolean certificate =
        method.equals(ServiceAccount.TLS_CLIENT_AUTH)
            || method.equals(ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH);
    if (certificate && Boolean.FALSE.equals(tlsClientCertificateBoundAccessTokens)) {
      throw ApiError.badRequest(
          "tls_client_certificate_bound_access_tokens cannot be false for "
              + method
              + ": a certificate client's tokens are always bound to its certificate");
    }
    return Boolean.TRUE.equals(tlsClientCertificateBoundAccessTokens);
  }

  /**
   * RFC 9449 §5.2: whether every token request of the account must carry a DPoP proof, so that all
   * its tokens are bound to a key it holds; any method may ask for it, and unset means no.
   */
  boolean requiresDpop() {
    return Boolean.TRUE.equals(dpopBoundAccessTokens);
  }

  /** The profile to create, or a 400 naming the first bad field. */
  AccountProfile checked(ScopeCatalog catalog) {
    String checkedName = name(name);
    String organization = organization("organization_id", organizationId);
    List<String> orgs = accessibleOrgs == null ? List.of() : accessibleOrgs;
    if (orgs.size() > MAX_ORGS) {
      throw ApiError.badRequest("accessible_orgs holds more than " + MAX_ORGS + " organizations");
    }
    orgs.forEach(org -> organization("accessible_orgs", org));
    List<String> checkedScopes = scopes(catalog);
    String service = serviceName == null ? serviceOf(checkedScopes.get(0)) : serviceName;
    if (!SERVICE.matcher(service).matches()) {
      throw ApiError.badRequest("service_name must be 1 to 100 of a-z, 0-9, '_' and '-'");
    }
    return new AccountProfile(checkedName, organization, orgs, checkedScopes, service);
  }

  static String name(String name) {
    if (name == null || name.isBlank()) {
      throw ApiError.badRequest("name is required");
    }
    if (name.length() > MAX_NAME || ShownText.hasDeceptive(name)) {
      throw ApiError.badRequest(
          "name must be at most "
              + MAX_NAME
              + " characters, without control, format (bidi) or line-separator characters");
    }
    return name.strip();
  }

  static String organization(String field, String organization) {
    if (organization == null || !JndiSettings.ORGANIZATION.matcher(organization).matches()) {
      throw ApiError.badRequest(
          field + " must be 1 to 64 letters, digits, '.', '_' or '-' (an organization hashkey)");
    }
    return organization;
  }

  private List<String> scopes(ScopeCatalog catalog) {
    if (scopes == null || scopes.isEmpty()) {
      throw ApiError.badRequest("scopes must name at least one scope");
    }
    if (scopes.size() > MAX_SCOPES) {
      throw ApiError.badRequest("scopes holds more than " + MAX_SCOPES + " scopes");
    }
    for (String scope : scopes) {
      if (scope == null || catalog.find(scope).isEmpty()) {
        throw ApiError.badRequest(
            "scopes: '" + CallerText.shortened(scope) + "' is not in the scope catalog");
      }
    }
    List<String> distinct = scopes.stream().distinct().toList();
    if (String.join(" ", distinct).length() > MAX_SCOPES_TEXT) {
      throw ApiError.badRequest(
          "scopes together hold more than " + MAX_SCOPES_TEXT + " characters: use a wildcard");
    }
    return distinct;
  }

  /** DESIGN "not shown": the service part of the first allowed scope. */
  private static String serviceOf(String scope) {
    return scope.substring(0, scope.indexOf(':'));
  }
}
