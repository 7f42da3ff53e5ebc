package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BearerCheckTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();

  private final AtomicInteger lookups = new AtomicInteger();
  private final BearerVerifier verifier =
      BearerVerifier.builder()
          .issuer(ISSUER)
          .clock(CLOCK)
          .keyLocator(
              kid -> {
                lookups.incrementAndGet();
                return KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty();
              })
          .build();
  private final String header = "Bearer " + TestTokens.signed(serviceAccount(), KEYS.getPrivate());

  @Test
  void whenOneGoodHeaderThenPassedWithAPrincipalNamedForTheClient() {
    BearerCheck check = BearerCheck.of(verifier, List.of(header), List.of("marketing:x"));

    BearerCheck.Passed passed = assertInstanceOf(BearerCheck.Passed.class, check);
    assertEquals(CLIENT_ID, passed.principal().getName());
    assertEquals(CLIENT_ID, passed.token().clientId());
  }

  @Test
  void whenTheHeaderIsRepeatedThenRefusedWithoutLookingForAKey() {
    BearerCheck check = BearerCheck.of(verifier, List.of(header, header), List.of());

    BearerCheck.Refused refused = assertInstanceOf(BearerCheck.Refused.class, check);
    assertEquals(401, refused.status());
    assertEquals(0, lookups.get());
  }

  @Test
  void whenTheVerifierFailsWithoutAVerdictThen503WithoutChallenge() {
    BearerVerifier failing =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(CLOCK)
            .keyLocator(
                kid -> {
                  throw new IllegalStateException("no keys");
                })
            .build();

    BearerCheck check = BearerCheck.of(failing, List.of(header), List.of());

    BearerCheck.Refused refused = assertInstanceOf(BearerCheck.Refused.class, check);
    assertEquals(503, refused.status());
    assertEquals(
        Map.of("Content-Type", "application/json", "Cache-Control", "no-store"), refused.headers());
  }

  @Test
  void whenTheMessageHoldsQuotesAndControlsThenTheBodyIsJsonThatReadsBackTheSame()
      throws Exception {
    String message = "a \"quoted\" \\ line\nand \u0001 \u2028 é";

    BearerCheck.Refused refused =
        BearerCheck.Refused.of(new AccessDeniedException(message, List.of()));

    assertEquals(
        Map.of("success", false, "message", message),
        new ObjectMapper().readValue(refused.body(), Map.class));
    assertEquals(403, refused.status());
  }
}
