package example;

import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import dev.platform.identity.verify.VerifiedToken;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Verifies the token on standard input with the published keys of the issuer {@code args[0]},
 * requiring the scopes {@code args[1..]}, and prints whose token it is.
 */
public final class VerifierUser {
  public static void main(String[] args) throws IOException {
    String token = new String(System.in.readAllBytes(), StandardCharsets.US_ASCII).strip();
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(args[0])
            .keyLocator(RemotePublicKeys.builder().issuer(URI.create(args[0])).build())
            .build();
    VerifiedToken verified =
        verifier.verify("Bearer " + token, Arrays.asList(args).subList(1, args.length));
    System.out.println("verified client_id=" + verified.clientId() + " scopes=" + verified.scopes());
  }
}
