package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.testkit.Account;
import dev.platform.identity.testkit.IdentityService;
import dev.platform.identity.testkit.LocalIdentity;
import dev.platform.identity.testkit.TestAccount;
import dev.platform.identity.verify.AccessDeniedException;
import dev.platform.identity.verify.UnauthenticatedException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A team's test on the documented dependency and annotations alone. */
@IdentityService
class OrdersClientTest {
  static final String READ = "orders:orders.read";

  @Test
  void whenTheServiceMintsATokenThenTheVerifierAcceptsIt(
      LocalIdentity identity, @Account(scopes = READ) TestAccount reader) {
    String token = identity.token(reader);

    assertEquals(
        reader.clientId(), identity.verifier().verifyToken(token, List.of(READ)).clientId());
    System.out.println("consumer: token for " + reader.clientId() + " from " + identity.issuer());
  }

  @Test
  void whenTokensAreForgedThenTheVerifierRefusesThem(
      LocalIdentity identity, @Account(scopes = READ) TestAccount reader) {
    assertThrows(
        UnauthenticatedException.class,
        () -> identity.verifier().verifyToken(identity.forge(reader).expired().sign(), List.of()));
    assertThrows(
        AccessDeniedException.class,
        () ->
            identity
                .verifier()
                .verifyToken(identity.forge(reader).withoutScope(READ).sign(), List.of(READ)));
  }

  /** A service of its own, timed from the start to its first token (issue 43's 5 s). */
  @Test
  void whenTheKitStartsThenItGivesATokenSoon() {
    long started = System.nanoTime();
    try (LocalIdentity own = LocalIdentity.start()) {
      String token = own.token(own.account("first").scopes(READ).create());
      System.out.printf(
          "consumer: kit start to first token %d ms%n", (System.nanoTime() - started) / 1_000_000);
      assertFalse(token.isEmpty());
    }
  }
}
