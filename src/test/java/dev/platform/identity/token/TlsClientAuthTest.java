package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.CertificateSubject;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.CertificateThumbprint;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.bouncycastle.asn1.x509.GeneralName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 on the token path: tls_client_auth clients (RFC 8705 §2.1), whose certificate must chain
 * to a CA the operator trusts and carry the subject the account registered, in each of §2.1.2's
 * forms; each way a certificate can fail, and that every failure tells the same as a stranger is
 * told. Then §3.4: a secret client registered for bound tokens. The clock is fixed an hour into the
 * CA's validity, so each certificate's time is judged against it, never against the machine's.
 */
class TlsClientAuthTest {
  static final String FORM = "application/x-www-form-urlencoded";
  static final TestPki PKI = TestPki.authority("Token path CA");
  static final TestPki OTHER_PKI = TestPki.authority("Token path CA");
  static final TestPki INTERMEDIATE = PKI.intermediate("Token path issuing CA");
  static final Instant NOW = PKI.certificate().getNotBefore().toInstant().plus(Duration.ofHours(1));
  static final TestPki.Issued ORDERS =
      PKI.client(
          "CN=orders,O=Kitchen",
          new GeneralName(GeneralName.dNSName, "orders.kitchen.example"),
          new GeneralName(GeneralName.uniformResourceIdentifier, "spiffe://kitchen/orders"),
          new GeneralName(GeneralName.iPAddress, "2001:db8::7"),
          new GeneralName(GeneralName.rfc822Name, "orders@Kitchen.example"));

  final TokenPathNode path = new TokenPathNode("tlsclient", NOW, List.of(PKI.certificate()));
  final Settings settings = path.settings;
  final MutableClock clock = path.clock;
  final SecretDigest digest = path.digest;
  final ServiceAccounts accounts = path.accounts;
  final TokenServlet endpoint = path.endpoint;

  @BeforeEach
  void startKeys() {
    path.start();
  }

  @AfterEach
  void close() {
    path.close();
  }

  UUID account(CertificateSubject.Kind kind, String value) {
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.createWithSubject(
            id,
            new AccountProfile("tls", "org", List.of(), List.of("catalog:*"), "catalog"),
            new CertificateSubject(kind, value),
            clock.instant()));
    return id;
  }

  UUID orders() {
    return account(CertificateSubject.Kind.SUBJECT_DN, "cn=orders, o=kitchen");
  }

  TokenAnswer answer(String body, List<X509Certificate> chain) {
    return endpoint.answer(
        () ->
            TokenRequest.from(
                body,
                FORM,
                null,
                null,
                chain == null ? Optional.empty() : Optional.of(new PresentedCertificate(chain))),
        "127.0.0.1",
        FailureBudget.NONE);
  }

  static String body(UUID id) {
    return "grant_type=client_credentials&client_id=" + id;
  }

  static JsonNode json(byte[] body) throws Exception {
    return new ObjectMapper().readTree(body);
  }

  static String text(TokenAnswer answer) {
    return new String(answer.body(), StandardCharsets.UTF_8);
  }

  /** Refused exactly as a stranger is: 401 invalid_client with the one failure text. */
  void assertRefusedAsAStranger(TokenAnswer answer) throws Exception {
    assertEquals(401, answer.status(), text(answer));
    assertEquals(json(answer(body(UUID.randomUUID()), ORDERS.chain()).body()), json(answer.body()));
    assertEquals(
        ClientAuthenticator.FAILED, json(answer.body()).path("error_description").asText());
  }

  @Test
  void whenTheCertificateChainsAndCarriesTheDnThenTheTokenIsBoundToIt() throws Exception {
    UUID id = orders();
    TokenAnswer answer;
    try (LogCapture lines = LogCapture.of(AuditLog.LOGGER)) {
      answer = answer(body(id), ORDERS.chain());
      String issued = lines.messages().toString();
      assertTrue(issued.contains("tls_client_auth"), issued);
      assertTrue(issued.contains(CertificateThumbprint.of(ORDERS.certificate())), issued);
    }
    assertEquals(200, answer.status(), text(answer));
    String token = json(answer.body()).path("access_token").asText();
    JsonNode claims = json(java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    assertEquals(
        CertificateThumbprint.of(ORDERS.certificate()),
        claims.path("cnf").path("x5t#S256").asText());
    // Its own certificate alone chains too: the CA is an anchor, not something to be sent.
    assertEquals(200, answer(body(id), List.of(ORDERS.certificate())).status());
  }

  @Test
  void whenEachSubjectFormIsRegisteredThenItsOwnNameMatchesAndAnotherDoesNot() throws Exception {
    List<CertificateSubject> matching =
        List.of(
            new CertificateSubject(CertificateSubject.Kind.SAN_DNS, "ORDERS.kitchen.example"),
            new CertificateSubject(CertificateSubject.Kind.SAN_URI, "spiffe://kitchen/orders"),
            new CertificateSubject(CertificateSubject.Kind.SAN_IP, "2001:0db8:0:0:0:0:0:7"),
            new CertificateSubject(CertificateSubject.Kind.SAN_EMAIL, "orders@kitchen.EXAMPLE"));
    for (CertificateSubject subject : matching) {
      TokenAnswer answer = answer(body(account(subject.kind(), subject.value())), ORDERS.chain());
      assertEquals(200, answer.status(), subject + ": " + text(answer));
    }
    List<CertificateSubject> other =
        List.of(
            new CertificateSubject(CertificateSubject.Kind.SUBJECT_DN, "CN=orders,O=Bakery"),
            new CertificateSubject(CertificateSubject.Kind.SAN_DNS, "kitchen.example"),
            new CertificateSubject(CertificateSubject.Kind.SAN_URI, "spiffe://kitchen/Orders"),
            new CertificateSubject(CertificateSubject.Kind.SAN_IP, "2001:db8::8"),
            new CertificateSubject(CertificateSubject.Kind.SAN_EMAIL, "Orders@kitchen.example"),
            // The DN's CN is no DNS name, and a DNS name is no DN.
            new CertificateSubject(CertificateSubject.Kind.SAN_DNS, "orders"));
    for (CertificateSubject subject : other) {
      assertRefusedAsAStranger(
          answer(body(account(subject.kind(), subject.value())), ORDERS.chain()));
    }
  }

  @Test
  void whenTheCertificateIsOfAnotherCaOrSelfSignedThenRefusedThoughItCarriesTheSubject()
      throws Exception {
    UUID id = orders();
    assertRefusedAsAStranger(answer(body(id), OTHER_PKI.client("CN=orders,O=Kitchen").chain()));
    assertRefusedAsAStranger(answer(body(id), TestPki.selfSigned("CN=orders,O=Kitchen").chain()));
    // Naming the trusted CA in a chain it did not sign changes nothing.
    assertRefusedAsAStranger(
        answer(
            body(id),
            List.of(OTHER_PKI.client("CN=orders,O=Kitchen").certificate(), PKI.certificate())));
  }

  @Test
  void whenTheCertificateIsOutsideItsValidityAtTheClocksTimeThenRefused() throws Exception {
    UUID id = orders();
    TestPki.Issued expired =
        PKI.client(
            "CN=orders,O=Kitchen", NOW.minus(Duration.ofDays(2)), NOW.minus(Duration.ofDays(1)));
    TestPki.Issued early =
        PKI.client(
            "CN=orders,O=Kitchen", NOW.plus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(2)));
    assertRefusedAsAStranger(answer(body(id), expired.chain()));
    assertRefusedAsAStranger(answer(body(id), early.chain()));
    clock.set(NOW.plus(Duration.ofDays(1)).plusSeconds(1));
    assertEquals(200, answer(body(id), early.chain()).status());
  }

  @Test
  void whenTheTrustedCaHasExpiredAtTheClocksTimeThenItsCertificatesAreRefused() throws Exception {
    UUID id = orders();
    Instant caEnd = PKI.certificate().getNotAfter().toInstant();
    TestPki.Issued outliving =
        PKI.client("CN=orders,O=Kitchen", NOW, caEnd.plus(Duration.ofDays(30)));
    assertEquals(200, answer(body(id), outliving.chain()).status());
    clock.set(caEnd.plus(Duration.ofDays(1)));
    assertRefusedAsAStranger(answer(body(id), outliving.chain()));
  }

  @Test
  void whenACaCertificateIsPresentedAsTheClientsThenRefusedEvenTheTrustedOne() throws Exception {
    UUID ca = account(CertificateSubject.Kind.SUBJECT_DN, "CN=Token path CA");
    UUID intermediate = account(CertificateSubject.Kind.SUBJECT_DN, "CN=Token path issuing CA");
    assertRefusedAsAStranger(answer(body(ca), List.of(PKI.certificate())));
    assertRefusedAsAStranger(
        answer(body(intermediate), List.of(INTERMEDIATE.certificate(), PKI.certificate())));
  }

  @Test
  void whenTheCertificateIsForServersOnlyThenRefused() throws Exception {
    UUID id = orders();
    assertRefusedAsAStranger(answer(body(id), PKI.serverOnly("CN=orders,O=Kitchen").chain()));
  }

  @Test
  void whenAnIntermediateIssuedItThenTheChainSentWithItIsUsedAndWithoutItRefused()
      throws Exception {
    UUID id = orders();
    TestPki.Issued issued = INTERMEDIATE.client("CN=orders,O=Kitchen");
    assertEquals(3, issued.chain().size());
    assertEquals(200, answer(body(id), issued.chain()).status());
    assertEquals(200, answer(body(id), issued.chain().subList(0, 2)).status());
    assertRefusedAsAStranger(answer(body(id), List.of(issued.certificate())));
  }

  /**
   * Review 39: the PKIX builder searches every certificate the client sent, and a client (behind a
   * TLS layer without JSSE's chain limit of 10, such as Tomcat's OpenSSL) could send hundreds that
   * name each other: 200 took the builder over a second per request, before any account was read. A
   * chain longer than {@link CertificateAuthorities#MAX_CHAIN} is refused without building, even
   * one that holds a good path.
   */
  @Test
  void whenTheChainIsLongerThanTheTlsLayersLimitThenRefusedWithoutAPath() throws Exception {
    UUID id = orders();
    TestPki.Issued issued = INTERMEDIATE.client("CN=orders,O=Kitchen");
    List<X509Certificate> padded = new java.util.ArrayList<>(issued.chain());
    while (padded.size() < CertificateAuthorities.MAX_CHAIN) {
      padded.add(OTHER_PKI.client("CN=padding").certificate());
    }
    assertEquals(200, answer(body(id), padded).status());
    padded.add(OTHER_PKI.client("CN=padding").certificate());
    assertRefusedAsAStranger(answer(body(id), padded));
  }

  /**
   * Review 39: a CA in the file is a trust anchor, and the JDK applies an anchor certificate's own
   * nameConstraints only when they are handed to its {@code TrustAnchor}. The docs have an
   * intermediate listed alone (behind a proxy it must be), so a sub-CA constrained to O=Kitchen and
   * kitchen.example issued certificates for any subject, and so for any account's.
   */
  @Test
  void whenACaOfTheFileIsNameConstrainedThenItsConstraintsHoldThoughItIsTheAnchor()
      throws Exception {
    TestPki kitchen =
        PKI.constrainedIntermediate(
            "Kitchen issuing CA",
            new GeneralName(new org.bouncycastle.asn1.x500.X500Name("O=Kitchen")),
            new GeneralName(GeneralName.dNSName, "kitchen.example"));
    CertificateAuthorities viaRoot = new CertificateAuthorities(List.of(PKI.certificate()));
    CertificateAuthorities alone = new CertificateAuthorities(List.of(kitchen.certificate()));
    TestPki.Issued inside =
        kitchen.client(
            "CN=orders,O=Kitchen", new GeneralName(GeneralName.dNSName, "orders.kitchen.example"));
    TestPki.Issued outsideDn = kitchen.client("CN=billing,O=Bakery");
    TestPki.Issued outsideSan =
        kitchen.client(
            "CN=orders,O=Kitchen", new GeneralName(GeneralName.dNSName, "orders.bakery.example"));
    for (CertificateAuthorities authorities : List.of(viaRoot, alone)) {
      assertTrue(authorities.trust(inside.chain(), NOW));
      assertEquals(false, authorities.trust(outsideDn.chain(), NOW));
      assertEquals(false, authorities.trust(outsideSan.chain(), NOW));
    }
  }

  /**
   * Review 39: likewise an anchor's path length constraint. INTERMEDIATE may issue no CA
   * (pathLenConstraint 0); listed alone it was the anchor, and a CA it issued all the same had its
   * certificates taken.
   */
  @Test
  void whenACaOfTheFileMayIssueNoCaThenACaItIssuedAnywayIsNotTrusted() throws Exception {
    TestPki deeper = INTERMEDIATE.intermediate("Issued against the path length");
    TestPki.Issued below = deeper.client("CN=orders,O=Kitchen");
    CertificateAuthorities viaRoot = new CertificateAuthorities(List.of(PKI.certificate()));
    CertificateAuthorities alone = new CertificateAuthorities(List.of(INTERMEDIATE.certificate()));
    TestPki.Issued direct = INTERMEDIATE.client("CN=orders,O=Kitchen");
    for (CertificateAuthorities authorities : List.of(viaRoot, alone)) {
      assertTrue(authorities.trust(direct.chain(), NOW));
      assertEquals(false, authorities.trust(below.chain(), NOW));
    }
    // The CA's own certificate, whose path is of no certificate at all, is refused, not a fault.
    assertEquals(false, viaRoot.trust(List.of(PKI.certificate()), NOW));
  }

  @Test
  void whenAnotherAccountsCertificateIsPresentedThenRefused() throws Exception {
    UUID orders = orders();
    UUID billing = account(CertificateSubject.Kind.SUBJECT_DN, "CN=billing,O=Kitchen");
    TestPki.Issued billingCertificate = PKI.client("CN=billing,O=Kitchen");
    assertEquals(200, answer(body(billing), billingCertificate.chain()).status());
    assertRefusedAsAStranger(answer(body(orders), billingCertificate.chain()));
  }

  @Test
  void whenTheAccountIsDeactivatedThenOnlyItsOwnCertificateHearsRevoked() throws Exception {
    UUID id = orders();
    accounts.change(id, account -> account.deactivate(clock.instant()));
    assertEquals(
        ClientAuthenticator.REVOKED,
        json(answer(body(id), ORDERS.chain()).body()).path("error_description").asText());
    assertRefusedAsAStranger(answer(body(id), OTHER_PKI.client("CN=orders,O=Kitchen").chain()));
  }

  @Test
  void whenNoCaIsConfiguredThenNoCertificateChains() throws Exception {
    CertificateAuthorities none = CertificateAuthorities.NONE;
    assertEquals(false, none.any());
    assertEquals(false, none.trust(ORDERS.chain(), NOW));
    assertTrue(new CertificateAuthorities(List.of(PKI.certificate())).trust(ORDERS.chain(), NOW));
  }

  @Test
  void whenASelfSignedAccountsCertificateIsCaIssuedItIsStillMatchedByItself() throws Exception {
    // The request's method is only a guess until the account is read: a CA-issued certificate
    // registered by a self_signed_tls_client_auth account authenticates it, by its thumbprint.
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.createWithKeys(
            id,
            new AccountProfile("self", "org", List.of(), List.of("catalog:*"), "catalog"),
            ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH,
            ServiceAccount.Keys.of(
                dev.platform.identity.account.ClientJwks.parseCertified(
                    new ObjectMapper().readTree(SelfSignedTokenTest.jwks(ORDERS)))),
            clock.instant()));
    assertEquals(200, answer(body(id), ORDERS.chain()).status());
    assertRefusedAsAStranger(answer(body(id), PKI.client("CN=orders,O=Kitchen").chain()));
  }

  @Test
  void whenASecretClientAsksForBoundTokensThenItsTokenIsBoundAndWithoutACertificateRefused()
      throws Exception {
    UUID id = UUID.randomUUID();
    String secret = "s3cret-" + UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
                id,
                new AccountProfile("bound", "org", List.of(), List.of("catalog:*"), "catalog"),
                digest.of(secret),
                clock.instant())
            .bindingTokens());
    String withSecret = body(id) + "&client_secret=" + secret;
    // Any certificate: the secret proves the client, the certificate is what the token names.
    TestPki.Issued any = TestPki.selfSigned("CN=anything");
    TokenAnswer bound = answer(withSecret, any.chain());
    assertEquals(200, bound.status(), text(bound));
    String token = json(bound.body()).path("access_token").asText();
    assertEquals(
        CertificateThumbprint.of(any.certificate()),
        json(java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]))
            .path("cnf")
            .path("x5t#S256")
            .asText());
    TokenAnswer without = answer(withSecret, null);
    assertEquals(400, without.status(), text(without));
    assertEquals("invalid_request", json(without.body()).path("error").asText());
    assertTrue(json(without.body()).path("error_description").asText().contains("present one"));
    // A wrong secret hears what every wrong secret hears, certificate or not.
    TokenAnswer wrong = answer(body(id) + "&client_secret=wrong", null);
    assertEquals(401, wrong.status());
  }
}
