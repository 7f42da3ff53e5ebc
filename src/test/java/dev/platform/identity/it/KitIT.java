package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.testkit.Account;
import dev.platform.identity.testkit.IdentityService;
import dev.platform.identity.testkit.LocalIdentity;
import dev.platform.identity.testkit.TestAccount;
import dev.platform.identity.verify.AccessDeniedException;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.UnauthenticatedException;
import dev.platform.identity.verify.VerifiedToken;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Issue 43: the test kit as a team uses it, against the real service it starts: accounts and their
 * tokens, refusal tokens signed by the service's key, rotation and revocation, and what an attacker
 * might hope of it (a port beyond loopback, a token that verifies at another start).
 */
@IdentityService
class KitIT {
  static final String READ = "orders:orders.read";
  static final String WRITE = "orders:orders.write";

  @Test
  void whenAnAccountGetsATokenThenTheKitsVerifierAcceptsIt(
      LocalIdentity identity, @Account(scopes = {READ, WRITE}) TestAccount orders) {
    VerifiedToken token = identity.verifier().verifyToken(identity.token(orders), List.of(READ));

    assertEquals(orders.clientId(), token.clientId());
    assertTrue(
        identity.issuer().toString().startsWith("http://127.0.0.1:"), identity.issuer().toString());
    token.requireOrganization("org-test");
  }

  @Test
  void whenAPrivateKeyJwtAccountGetsATokenThenItVerifies(
      LocalIdentity identity,
      @Account(scopes = READ, organization = "org-b", privateKeyJwt = true) TestAccount signer) {
    VerifiedToken token = identity.verifier().verifyToken(identity.token(signer), List.of(READ));

    assertEquals(signer.clientId(), token.clientId());
    assertTrue(signer.clientSecret().isEmpty());
  }

  @Test
  void whenTokensAreForgedWithTheServicesKeyThenEachIsRefusedAsItsRuleSays(
      LocalIdentity identity, @Account(scopes = {READ, WRITE}) TestAccount orders) {
    BearerVerifier verifier = identity.verifier();
    var forgery = identity.forge(orders);

    verifier.verifyToken(forgery.sign(), List.of(READ, WRITE)).requireOrganization("org-test");
    assertThrows(
        UnauthenticatedException.class,
        () -> verifier.verifyToken(forgery.expired().sign(), List.of(READ)));
    assertThrows(
        UnauthenticatedException.class,
        () -> verifier.verifyToken(forgery.notYetValid().sign(), List.of(READ)));
    assertThrows(
        UnauthenticatedException.class,
        () -> verifier.verifyToken(forgery.otherIssuer("http://127.0.0.2:1").sign(), List.of()));
    assertThrows(
        AccessDeniedException.class,
        () -> verifier.verifyToken(forgery.withoutScope(WRITE).sign(), List.of(WRITE)));
    VerifiedToken elsewhere =
        verifier.verifyToken(forgery.otherOrganization("org-z").sign(), List.of(READ));
    assertThrows(AccessDeniedException.class, () -> elsewhere.requireOrganization("org-test"));
  }

  @Test
  void whenTheKeyRotatesAndTheOldOneIsRevokedThenItsTokensAreRefused() {
    try (LocalIdentity identity = LocalIdentity.start()) {
      TestAccount account = identity.account("rotating").scopes(READ).create();
      BearerVerifier verifier = identity.verifier();
      String before = identity.token(account);
      String old = identity.currentKid();

      String next = identity.rotateKey();
      String after = identity.token(account);
      verifier.verifyToken(before, List.of(READ));
      verifier.verifyToken(after, List.of(READ));
      identity.revokeKey(old);

      assertNotEquals(old, next);
      assertEquals(next, identity.currentKid());
      assertThrows(UnauthenticatedException.class, () -> verifier.verifyToken(before, List.of()));
      assertThrows(
          UnauthenticatedException.class,
          () -> verifier.verifyToken(identity.forge(account).signedByKey(old).sign(), List.of()));
      verifier.verifyToken(after, List.of(READ));
    }
  }

  @Test
  void whenATokenOfOneStartIsShownToAnotherThenItIsRefused(
      LocalIdentity identity, @Account(scopes = READ) TestAccount orders) {
    String forged = identity.forge(orders).sign();
    long started = System.nanoTime();
    try (LocalIdentity other = LocalIdentity.start()) {
      TestAccount account = other.account("other").scopes(READ).create();
      String first = other.token(account);
      System.out.printf(
          "KitIT: kit start to first token (a second service in this JVM): %d ms%n",
          (System.nanoTime() - started) / 1_000_000);

      BearerVerifier verifier =
          other.verifierBuilder().issuer(identity.issuer().toString()).build();
      assertThrows(UnauthenticatedException.class, () -> verifier.verifyToken(forged, List.of()));
      assertFalse(first.isEmpty());
    }
  }

  @Test
  void whenTheServiceListensThenOnlyOnLoopback(LocalIdentity identity) throws IOException {
    List<String> listening = identity.listeningAddresses();

    assertTrue(listening.size() >= 2, "the HTTP port and H2's AUTO_SERVER: " + listening);
    for (String address : listening) {
      assertTrue(
          address.startsWith("0100007F:")
              || address.startsWith("0000000000000000FFFF00000100007F:"),
          "not 127.0.0.1: " + listening);
    }
  }

  /** A class that asks for a service of its own gets one, the same for each of its tests. */
  @Nested
  @IdentityService(lifetime = IdentityService.Lifetime.PER_CLASS)
  class OfItsOwn {
    static LocalIdentity first;

    @Test
    void whenAskedTwiceThenTheSameServiceAndNotTheJvms(LocalIdentity identity) {
      whenAsked(identity);
    }

    @Test
    void whenAskedAgainThenTheSameService(LocalIdentity identity) {
      whenAsked(identity);
    }

    private void whenAsked(LocalIdentity identity) {
      assertNotSame(LocalIdentity.shared(), identity);
      assertNotEquals(LocalIdentity.shared().issuer(), identity.issuer());
      if (first == null) {
        first = identity;
      }
      assertSame(first, identity);
    }
  }
}
