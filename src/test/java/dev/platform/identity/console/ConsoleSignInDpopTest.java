package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.token.TokenAnswer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 item 4: the console signs in as a DPoP client (ConsoleDpopIT shows an account whose
 * tokens must be DPoP-bound signing in, with server nonces on), so the login page no longer has
 * words of its own for a DPoP refusal: the token endpoint's description is shown as for any other
 * refusal, and a wrong secret is worded as before.
 */
class ConsoleSignInDpopTest {
  private static TokenAnswer refused(int status, String error, String description) {
    String body = "{\"error\":\"" + error + "\",\"error_description\":\"" + description + "\"}";
    return new TokenAnswer(status, Map.of(), body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void whenTheTokenEndpointRefusesTheProofThenItsOwnDescriptionIsShown() {
    assertEquals(
        "the DPoP proof was used before",
        ConsoleResource.refusal(
            refused(400, "invalid_dpop_proof", "the DPoP proof was used before")));
  }

  @Test
  void whenTheTokenEndpointRefusesForAnotherReasonThenItsDescriptionIsShown() {
    assertEquals(
        "the scope is not granted",
        ConsoleResource.refusal(refused(400, "invalid_scope", "the scope is not granted")));
  }

  @Test
  void whenTheSecretIsWrongThenTheRefusalIsWordedAsBefore() {
    assertEquals(
        "The client_id or client_secret is wrong, or the account is not active.",
        ConsoleResource.refusal(refused(401, "invalid_client", "Client authentication failed")));
  }
}
