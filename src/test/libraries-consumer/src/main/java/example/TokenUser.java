package example;

import dev.platform.identity.client.TokenClient;
import java.net.URI;

/**
 * Prints a token from the identity service at {@code args[0]} for the account whose credentials
 * are in the environment ({@code IDENTITY_CLIENT_ID}, {@code IDENTITY_CLIENT_SECRET}): a secret
 * is never an argument, which any user of the machine can read in the process list.
 */
public final class TokenUser {
  public static void main(String[] args) {
    TokenClient tokens =
        TokenClient.builder()
            .baseUrl(URI.create(args[0]))
            .credentials(
                System.getenv("IDENTITY_CLIENT_ID"), System.getenv("IDENTITY_CLIENT_SECRET"))
            .build();
    System.out.println(tokens.token());
  }
}
