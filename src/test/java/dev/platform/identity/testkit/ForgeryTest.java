package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.verify.AccessDeniedException;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.TestTokens;
import dev.platform.identity.verify.UnauthenticatedException;
import dev.platform.identity.verify.VerifiedToken;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each forgery is refused by {@link BearerVerifier} as its rule says (401 or 403), with the key of
 * the genuine token, and the unchanged claims re-signed are accepted: the kit breaks one rule at a
 * time and nothing else.
 */
class ForgeryTest {
  static final String SCOPE = "catalog:products.view";
  static final KeyPair CURRENT = TestTokens.rsaKeyPair();
  static final KeyPair REVOKED = TestTokens.rsaKeyPair();
  static final String REVOKED_KID = "key-revoked";

  final Map<String, PublicKey> listed = Map.of(TestTokens.KID, CURRENT.getPublic());
  final BearerVerifier verifier =
      BearerVerifier.builder()
          .issuer(TestTokens.ISSUER)
          .clock(TestTokens.CLOCK)
          .keyLocator(kid -> Optional.ofNullable(listed.get(kid)))
          .build();
  final Forgery genuine =
      Forgery.of(
          TestTokens.signed(TestTokens.serviceAccount(), CURRENT.getPrivate()),
          TestTokens.KID,
          CURRENT.getPrivate(),
          TestTokens.CLOCK,
          ForgeryTest::privateKey);

  @Test
  void whenTheClaimsAreSignedUnchangedThenTheVerifierAcceptsThem() {
    VerifiedToken token = verifier.verifyToken(genuine.sign(), List.of(SCOPE));

    assertEquals(TestTokens.CLIENT_ID, token.clientId());
    token.requireOrganization("org-a");
  }

  @Test
  void whenExpiredThenUnauthenticated() {
    UnauthenticatedException refused =
        assertThrows(
            UnauthenticatedException.class,
            () -> verifier.verifyToken(genuine.expired().sign(), List.of(SCOPE)));

    assertEquals("token expired", refused.getMessage());
  }

  @Test
  void whenNotYetValidThenUnauthenticated() {
    assertThrows(
        UnauthenticatedException.class,
        () -> verifier.verifyToken(genuine.notYetValid().sign(), List.of(SCOPE)));
  }

  @Test
  void whenWithoutTheScopeThenAccessDenied() {
    Forgery forged = genuine.withoutScope(SCOPE);

    assertThrows(
        AccessDeniedException.class, () -> verifier.verifyToken(forged.sign(), List.of(SCOPE)));
    assertEquals("marketing:*", forged.claims().get("scopes").get(0).asText());
  }

  @Test
  void whenOfAnotherOrganizationThenAccessDeniedForOurs() {
    VerifiedToken token =
        verifier.verifyToken(genuine.otherOrganization("org-z").sign(), List.of(SCOPE));

    assertThrows(AccessDeniedException.class, () -> token.requireOrganization("org-a"));
  }

  @Test
  void whenOfAnotherIssuerThenUnauthenticated() {
    assertThrows(
        UnauthenticatedException.class,
        () ->
            verifier.verifyToken(
                genuine.otherIssuer("https://elsewhere.example.test").sign(), List.of(SCOPE)));
  }

  @Test
  void whenSignedByAKeyNoLongerListedThenUnauthenticated() {
    String forged = genuine.signedByKey(REVOKED_KID).sign();

    assertEquals(REVOKED_KID, LocalIdentity.kidOf(forged));
    assertThrows(UnauthenticatedException.class, () -> verifier.verifyToken(forged, List.of()));
  }

  @Test
  void whenSignedTwiceThenEachHasItsOwnJti() {
    assertNotEquals(
        genuine.expired().sign().split("\\.")[1], genuine.expired().sign().split("\\.")[1]);
  }

  private static PrivateKey privateKey(String kid) {
    if (!REVOKED_KID.equals(kid)) {
      throw new IllegalArgumentException(kid);
    }
    return REVOKED.getPrivate();
  }
}
