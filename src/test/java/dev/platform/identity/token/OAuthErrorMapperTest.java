package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.web.Json;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OAuthErrorMapperTest {
  private final OAuthErrorMapper mapper = new OAuthErrorMapper();
  private final ObjectMapper json = new Json().getContext(Object.class);

  @Test
  void when400ThenSpecBodyNoStoreAndNoChallenge() throws Exception {
    Response response =
        mapper.toResponse(OAuthError.invalidRequest("missing parameter: grant_type"));

    assertEquals(400, response.getStatus());
    assertEquals(MediaType.APPLICATION_JSON_TYPE, response.getMediaType());
    assertEquals("no-store", response.getHeaderString("Cache-Control"));
    assertEquals("no-cache", response.getHeaderString("Pragma"));
    assertNull(response.getHeaderString("WWW-Authenticate"));
    assertNull(response.getHeaderString("Retry-After"));
    assertEquals(
        "{\"error\":\"invalid_request\",\"error_description\":\"missing parameter: grant_type\"}",
        json.writeValueAsString(response.getEntity()));
  }

  @Test
  void when401ToBasicThenBasicChallenge() {
    Response response = mapper.toResponse(OAuthError.invalidClient("bad client", true));

    assertEquals(401, response.getStatus());
    assertEquals("Basic realm=\"identity\"", response.getHeaderString("WWW-Authenticate"));
    assertEquals("no-store", response.getHeaderString("Cache-Control"));
    assertEquals("no-cache", response.getHeaderString("Pragma"));
  }

  @Test
  void when401ToBodyCredentialsThenNoChallenge() {
    Response response = mapper.toResponse(OAuthError.invalidClient("bad client", false));

    assertEquals(401, response.getStatus());
    assertNull(response.getHeaderString("WWW-Authenticate"));
  }

  @Test
  void when429ThenRetryAfterInHeaderAndBody() throws Exception {
    Response response =
        mapper.toResponse(OAuthError.rateLimitExceeded("too many", Duration.ofSeconds(30)));

    assertEquals(429, response.getStatus());
    assertEquals("30", response.getHeaderString("Retry-After"));
    assertEquals(
        "{\"error\":\"rate_limit_exceeded\",\"error_description\":\"too many\",\"retry_after\":30}",
        json.writeValueAsString(response.getEntity()));
  }

  @Test
  void whenDescriptionHadQuotesThenTheJsonHasNoEscapes() throws Exception {
    Response response = mapper.toResponse(OAuthError.invalidScope("scope \"x\\y\" is unknown"));

    assertEquals(
        "{\"error\":\"invalid_scope\",\"error_description\":\"scope 'x/y' is unknown\"}",
        json.writeValueAsString(response.getEntity()));
  }
}
