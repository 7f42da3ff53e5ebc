package dev.platform.identity.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.platform.identity.account.CertificateSubject;
import dev.platform.identity.account.ServiceAccount;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A service account as the administration API shows it: never any secret or digest. */
public record AccountJson(
    String clientId,
    String name,
    String organizationId,
    List<String> accessibleOrgs,
    List<String> scopes,
    String serviceName,
    String status,
    String createdAt,
    String updatedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String secretCreatedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String previousSecretExpiresAt,
    String tokenEndpointAuthMethod,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String jwks,
    @JsonInclude(JsonInclude.Include.NON_NULL) String jwksUri,
    @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSubjectDn,
    @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanDns,
    @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanUri,
    @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanIp,
    @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanEmail,
    boolean tlsClientCertificateBoundAccessTokens,
    boolean dpopBoundAccessTokens) {

  /** The account at {@code now}: the previous secret's expiry only while it still works. */
  static AccountJson from(ServiceAccount account, Instant now) {
    return new AccountJson(
        account.clientId().toString(),
        account.name(),
        account.organizationId(),
        account.accessibleOrgs(),
        account.scopes(),
        account.serviceName(),
        account.status().name().toLowerCase(Locale.ROOT),
        account.createdAt().toString(),
        account.updatedAt().toString(),
        Optional.ofNullable(account.secretCreatedAt()).map(Instant::toString).orElse(null),
        account.previousSecretExpiresAt(now).map(Instant::toString).orElse(null),
        account.tokenEndpointAuthMethod(),
        account.jwks().orElse(null),
        account.jwksUri().orElse(null),
        subject(account, CertificateSubject.Kind.SUBJECT_DN),
        subject(account, CertificateSubject.Kind.SAN_DNS),
        subject(account, CertificateSubject.Kind.SAN_URI),
        subject(account, CertificateSubject.Kind.SAN_IP),
        subject(account, CertificateSubject.Kind.SAN_EMAIL),
        account.bindsTokens(),
        account.requiresDpop());
  }

  /** A tls_client_auth account's subject, when it is of {@code kind}; else null. */
  private static String subject(ServiceAccount account, CertificateSubject.Kind kind) {
    return account
        .certificateSubject()
        .filter(subject -> subject.kind() == kind)
        .map(CertificateSubject::value)
        .orElse(null);
  }

  /**
   * The answer to a creation: the secret, shown this once (SPEC 2.1); none for a private_key_jwt
   * account, which has none.
   */
  public record Created(
      String clientId,
      @JsonInclude(JsonInclude.Include.NON_NULL) String clientSecret,
      String grantType,
      List<String> scopes,
      String name,
      String organizationId,
      List<String> accessibleOrgs,
      String serviceName,
      String status,
      String createdAt,
      String tokenEndpointAuthMethod,
      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String jwks,
      @JsonInclude(JsonInclude.Include.NON_NULL) String jwksUri,
      @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSubjectDn,
      @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanDns,
      @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanUri,
      @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanIp,
      @JsonInclude(JsonInclude.Include.NON_NULL) String tlsClientAuthSanEmail,
      boolean tlsClientCertificateBoundAccessTokens,
      boolean dpopBoundAccessTokens) {

    static Created from(ServiceAccount account, String secret) {
      return new Created(
          account.clientId().toString(),
          secret,
          "client_credentials",
          account.scopes(),
          account.name(),
          account.organizationId(),
          account.accessibleOrgs(),
          account.serviceName(),
          "active",
          account.createdAt().toString(),
          account.tokenEndpointAuthMethod(),
          account.jwks().orElse(null),
          account.jwksUri().orElse(null),
          subject(account, CertificateSubject.Kind.SUBJECT_DN),
          subject(account, CertificateSubject.Kind.SAN_DNS),
          subject(account, CertificateSubject.Kind.SAN_URI),
          subject(account, CertificateSubject.Kind.SAN_IP),
          subject(account, CertificateSubject.Kind.SAN_EMAIL),
          account.bindsTokens(),
          account.requiresDpop());
    }
  }

  /**
   * The answer to a secret rotation: the new secret, shown this once, and when the replaced one
   * stops working if it was given an overlap.
   */
  public record NewSecret(
      String clientId,
      String clientSecret,
      @JsonInclude(JsonInclude.Include.NON_NULL) String previousSecretExpiresAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) String tokensRevokedBefore) {

    static NewSecret from(ServiceAccount account, String secret, Instant now) {
      return from(account, secret, now, null);
    }

    /**
     * @param tokensRevokedBefore the cut-off the rotation made ({@code "revoke_tokens": true}): the
     *     account's tokens issued before it are revoked; null when it made none
     */
    static NewSecret from(
        ServiceAccount account, String secret, Instant now, Instant tokensRevokedBefore) {
      return new NewSecret(
          account.clientId().toString(),
          secret,
          account.previousSecretExpiresAt(now).map(Instant::toString).orElse(null),
          tokensRevokedBefore == null ? null : tokensRevokedBefore.toString());
    }
  }

  /**
   * The answer to an administrative revocation (issue 38).
   *
   * @param jti the token revoked by its jti, or null
   * @param listedUntil until when the revocation is kept (and listed in the feed)
   * @param tokensRevokedBefore the account's cut-off: its tokens issued before it are revoked; or
   *     null
   */
  public record Revoked(
      String clientId,
      @JsonInclude(JsonInclude.Include.NON_NULL) String jti,
      @JsonInclude(JsonInclude.Include.NON_NULL) String tokensRevokedBefore,
      String listedUntil) {}
}
