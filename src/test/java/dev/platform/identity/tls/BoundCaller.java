package dev.platform.identity.tls;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.boundTo;
import static dev.platform.identity.verify.TestTokens.serviceAccount;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.db.Database;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.TestTokens;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Issue 39: a caller of the service's own token-checking routes (administration API, {@code
 * /metrics}) whose token is bound to its certificate (RFC 8705), with another certificate of the
 * same subject to present instead, its active account, and the verifier that trusts its key.
 */
public final class BoundCaller {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();

  private final TestPki authority;
  private final X509Certificate certificate;
  private final X509Certificate other;
  private final String header;

  /**
   * @param subject the certificates' subject, e.g. {@code CN=admin}
   * @param scope the one scope the token carries
   */
  public BoundCaller(String subject, String scope) {
    this.authority = TestPki.authority("Bound caller CA");
    this.certificate = authority.client(subject).certificate();
    this.other = authority.client(subject).certificate();
    this.header =
        "Bearer "
            + TestTokens.signed(
                boundTo(serviceAccount().claim("scopes", List.of(scope)), certificate),
                KEYS.getPrivate());
  }

  /** The {@code Authorization} header with the bound token. */
  public String header() {
    return header;
  }

  /** The certificate the token is bound to. */
  public X509Certificate certificate() {
    return certificate;
  }

  /** Another certificate of the same subject and authority. */
  public X509Certificate other() {
    return other;
  }

  /** The chain a container would give: the certificate, then its authority's. */
  public X509Certificate[] chain(X509Certificate presented) {
    return new X509Certificate[] {presented, authority.certificate()};
  }

  /**
   * The caller's account, active since a day before {@code TestTokens.NOW}, in {@code database}.
   */
  public ServiceAccounts accounts(Database database) {
    ServiceAccounts accounts = new ServiceAccounts(database);
    accounts.add(
        ServiceAccount.create(
            UUID.fromString(CLIENT_ID),
            TestAccounts.catalogReader(),
            TestAccounts.digest("digest"),
            NOW.minus(Duration.ofDays(1))));
    return accounts;
  }

  /** A verifier of this issuer that trusts the token's key, at {@code TestTokens.NOW}. */
  public BearerVerifier verifier() {
    return BearerVerifier.builder()
        .issuer(ISSUER)
        .clock(CLOCK)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .build();
  }
}
