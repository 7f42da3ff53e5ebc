package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.key.JwkAssertions;
import java.math.BigInteger;
import java.net.URL;
import java.net.http.HttpResponse;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** SPEC 4.2 to 4.4 over HTTP, on the real WAR: the key set, one key, the 404s. */
@ExtendWith(ArquillianExtension.class)
class PublicKeysIT {
  private static final Pattern MAX_AGE = Pattern.compile("public, max-age=(\\d+)");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  @Test
  void whenKeysFetchedThenOneRsaSigningKeyWithPublicMembersOnly() {
    HttpResponse<String> response = new Http(base).get("/api/public-keys");

    assertEquals(200, response.statusCode());
    assertTrue(contentType(response).startsWith("application/json"), contentType(response));
    JsonNode keys = Http.json(response).get("keys");
    assertEquals(1, keys.size(), "a fresh deployment has its first key only");
    JwkAssertions.assertPublicRsaSigningKey(keys.get(0));
  }

  @Test
  void whenKeysFetchedThenCacheableForAtMostAnHour() {
    HttpResponse<String> response = new Http(base).get("/api/public-keys");

    String cacheControl = response.headers().firstValue("Cache-Control").orElseThrow();
    Matcher maxAge = MAX_AGE.matcher(cacheControl);
    assertTrue(maxAge.matches(), cacheControl);
    long seconds = Long.parseLong(maxAge.group(1));
    assertTrue(seconds > 0 && seconds <= 3600, cacheControl);
  }

  @Test
  void whenOneKeyLookedUpThenItsPemIsTheKeyOfTheJwk() throws Exception {
    Http http = new Http(base);
    JsonNode jwk = Http.json(http.get("/api/public-keys")).get("keys").get(0);
    String kid = jwk.get("kid").asText();

    HttpResponse<String> response = http.get("/api/public-keys/" + kid);

    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Cache-Control").orElseThrow().startsWith("public"));
    JsonNode record = Http.json(response);
    assertEquals(kid, record.get("key_id").asText());
    assertEquals("RS256", record.get("algorithm").asText());
    assertTrue(record.get("is_current").asBoolean());
    assertTrue(record.get("expires_at").isNull(), "no successor is scheduled yet");
    Instant activeFrom = Instant.parse(record.get("active_from").asText());
    assertTrue(!activeFrom.isAfter(Instant.now()), activeFrom.toString());
    String pem = record.get("public_key").asText();
    assertTrue(pem.startsWith("-----BEGIN PUBLIC KEY-----\n"), pem);
    assertEquals(fromJwk(jwk), fromPem(pem));
  }

  @Test
  void whenKeyIdUnknownThen404WithErrorBody() {
    HttpResponse<String> response = new Http(base).get("/api/public-keys/no-such-key");

    assertEquals(404, response.statusCode());
    assertTrue(contentType(response).startsWith("application/json"), contentType(response));
    assertEquals("Key not found or expired", Http.json(response).get("error").asText());
  }

  @Test
  void whenWellKnownJwksRequestedThen404() {
    assertEquals(404, new Http(base).get("/.well-known/jwks.json").statusCode());
  }

  private static String contentType(HttpResponse<String> response) {
    return response.headers().firstValue("Content-Type").orElse("");
  }

  private static PublicKey fromJwk(JsonNode jwk) throws Exception {
    BigInteger n = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.get("n").asText()));
    BigInteger e = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.get("e").asText()));
    return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e));
  }

  private static PublicKey fromPem(String pem) throws Exception {
    String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA")
        .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
  }
}
