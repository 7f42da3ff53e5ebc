package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.platform.identity.client.TokenClient;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A verifying service's view: the running issuer's keys through RemotePublicKeys, over HTTP. */
@ExtendWith(ArquillianExtension.class)
class RemoteKeysIT {
  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  String adminToken() {
    return new Http(base).adminToken();
  }

  @Test
  void whenTheTokenClientAsksThenItsTokenVerifiesThroughTheRemoteKeys() {
    TokenClient client =
        TokenClient.builder()
            .baseUrl(URI.create(base.toString()))
            .credentials(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET)
            .scopes(List.of("identity:admin"))
            .build();
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(Deployments.ISSUER)
            .keyLocator(RemotePublicKeys.builder().issuer(URI.create(base.toString())).build())
            .build();

    String token = client.token();

    assertEquals(token, client.token());
    assertEquals(List.of("identity:admin"), verifier.verify("Bearer " + token, List.of()).scopes());
  }

  static String kid(String token) {
    String header =
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8);
    return header.replaceAll(".*\"kid\":\"([^\"]+)\".*", "$1");
  }

  @Test
  void whenTheIssuerRotatesThenItsNewTokensVerifyWithoutARestart() {
    MutableClock clock = new MutableClock(Instant.now());
    RemotePublicKeys keys =
        RemotePublicKeys.builder().issuer(URI.create(base.toString())).clock(clock).build();
    BearerVerifier verifier =
        BearerVerifier.builder().issuer(Deployments.ISSUER).keyLocator(keys).clock(clock).build();
    String before = adminToken();
    assertEquals(
        Deployments.ADMIN_ID,
        verifier.verify("Bearer " + before, List.of("identity:admin")).clientId());

    Http http = new Http(base);
    int rotated =
        http.send(
                http.request("/admin/v1/signing-keys/rotate?immediate=true")
                    .header("Authorization", "Bearer " + before)
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build())
            .statusCode();
    assertEquals(201, rotated);
    String after = adminToken();
    assertNotEquals(kid(before), kid(after));
    clock.advance(Duration.ofSeconds(61));

    assertEquals(Deployments.ADMIN_ID, verifier.verify("Bearer " + after, List.of()).clientId());
    assertEquals(Deployments.ADMIN_ID, verifier.verify("Bearer " + before, List.of()).clientId());
  }
}
