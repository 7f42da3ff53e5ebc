package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.token.TokenAnswer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 item 4: the console signs in through the token endpoint without a DPoP key, so an
 * account whose tokens must be DPoP-bound cannot sign in yet; the login page says so in words
 * rather than repeating the token endpoint's advice to send a proof, which the operator cannot do.
 */
class ConsoleSignInDpopTest {
  private static TokenAnswer refused(String error, String description) {
    String body = "{\"error\":\"" + error + "\",\"error_description\":\"" + description + "\"}";
    return new TokenAnswer(400, Map.of(), body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void whenTheTokenEndpointWantsAProofThenTheLoginPageSaysTheConsoleCannotSignInSuchAnAccount() {
    for (String error : new String[] {"invalid_dpop_proof", "use_dpop_nonce"}) {
      String said = ConsoleResource.refusal(refused(error, "send a DPoP proof"));

      assertTrue(said.contains("DPoP-bound"), said);
      assertTrue(said.contains("cannot sign in with such an account"), said);
    }
  }

  @Test
  void whenTheTokenEndpointRefusesForAnotherReasonThenItsDescriptionIsShown() {
    assertEquals(
        "the scope is not granted",
        ConsoleResource.refusal(refused("invalid_scope", "the scope is not granted")));
  }
}
