package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 40 with a client we did not write, in the language many of our callers' services are in:
 * openid-client (panva) on Node.js discovers the service (RFC 8414), makes its own ES256 DPoP key
 * and proofs, and gets DPoP tokens bound to that key. The service asks for server nonces, so the
 * library's own retry on {@code use_dpop_nonce} is exercised too. The library is pinned by the
 * package-lock.json in {@code src/test/node/openid-client-dpop}, installed with {@code npm ci} from
 * the npm registry into {@code target/}.
 */
@ExtendWith(ArquillianExtension.class)
class OpenIdClientDpopIT {
  static final Path SOURCE = Path.of("src/test/node/openid-client-dpop");
  static final Path PROJECT = Path.of("target/openid-client-dpop");
  static final ObjectMapper JSON = new ObjectMapper();

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war(
        "openid-client-" + UUID.randomUUID(), Map.of("identity/dpopNonces", "true"));
  }

  @ArquillianResource URL base;

  @BeforeAll
  static void install() throws Exception {
    Files.createDirectories(PROJECT);
    for (String file : List.of("package.json", "package-lock.json", "dpop.mjs")) {
      Files.copy(SOURCE.resolve(file), PROJECT.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
    Result npm = run(List.of("npm", "ci", "--no-audit", "--no-fund"), "", 300);
    assertEquals(0, npm.exit(), "npm ci: " + npm.output());
  }

  @Test
  void whenOpenIdClientAsksWithItsDpopHandleThenItGetsDpopTokensBoundToItsKey() throws Exception {
    HttpResponse<String> created =
        new Http(base)
            .admin(
                "POST",
                "/service-accounts",
                new Http(base).adminToken(),
                "{\"name\":\"openid-client\",\"organization_id\":\"org-o\","
                    + "\"scopes\":[\"marketing:*\"]}");
    assertEquals(201, created.statusCode(), created.body());
    String clientId = Http.json(created).get("client_id").asText();
    String secret = Http.json(created).get("client_secret").asText();

    // The credentials go through stdin: a process list shows the arguments.
    Result node =
        run(
            List.of("node", "dpop.mjs", Deployments.ISSUER, "marketing:*"),
            clientId + "\n" + secret + "\n",
            120);

    assertEquals(0, node.exit(), node.output());
    List<JsonNode> tokens = new ArrayList<>();
    for (String line : node.output().split("\n")) {
      if (line.startsWith("{")) {
        tokens.add(JSON.readTree(line));
      }
    }
    assertEquals(2, tokens.size(), node.output());
    for (JsonNode token : tokens) {
      // oauth4webapi hands token_type over in lower case; RFC 6749 §5.1 has it case-insensitive.
      assertEquals("dpop", token.get("token_type").asText());
      JsonNode claims = claims(token.get("access_token").asText());
      assertEquals(token.get("thumbprint").asText(), claims.path("cnf").path("jkt").asText());
      assertEquals(clientId, claims.path("sub").asText());
    }
    assertNotEquals(
        tokens.get(0).get("access_token").asText(), tokens.get(1).get("access_token").asText());
  }

  static JsonNode claims(String jwt) throws IOException {
    return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
  }

  record Result(int exit, String output) {}

  /** Runs {@code command} in the project with {@code input}; killed past {@code seconds}. */
  static Result run(List<String> command, String input, int seconds) throws Exception {
    Path output = Files.createTempFile(PROJECT, "run", ".log");
    Process process =
        new ProcessBuilder(command)
            .directory(PROJECT.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().close();
    boolean ended = process.waitFor(seconds, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    String text = Files.readString(output);
    assertTrue(ended, String.join(" ", command) + " ran past " + seconds + " s: " + text);
    return new Result(process.exitValue(), text);
  }
}
