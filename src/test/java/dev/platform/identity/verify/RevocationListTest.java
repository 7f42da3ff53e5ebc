package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 38 item 5: the revocation feed's document is read strictly, or not at all. */
class RevocationListTest {
  static final String ISSUER = "http://127.0.0.1:8080";
  static final String HASH = RevocationList.subjectHash("client-a");

  static RevocationList read(String json) throws IOException {
    return RevocationList.read(json.getBytes(StandardCharsets.UTF_8), ISSUER);
  }

  @Test
  void whenTheFeedIsWellFormedThenItRevokesByJtiAndByAccountNotBefore() throws IOException {
    RevocationList feed =
        read(
            "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"j1\",\"exp\":1900000000},"
                + "{\"jti\":\"j2\",\"exp\":1900000001,\"reason\":\"skipped\"}],"
                + "\"accounts\":[{\"sub_sha256\":\""
                + HASH
                + "\",\"not_before\":1000,\"until\":2000}],\"generated_at\":{\"a\":[1]}}");

    assertEquals(3, feed.size());
    assertTrue(feed.revokes("j2", "other", 0));
    assertTrue(feed.revokes(null, HASH, 999));
    assertTrue(feed.revokes("j3", HASH, Long.MIN_VALUE), "no iat: cannot show it is newer");
    assertFalse(feed.revokes("j3", HASH, 1000));
    assertFalse(feed.revokes("j3", RevocationList.subjectHash("client-b"), 0));
  }

  @Test
  void whenAnAccountIsListedTwiceThenTheLaterNotBeforeHolds() throws IOException {
    String entry = "{\"sub_sha256\":\"" + HASH + "\",\"not_before\":%d,\"until\":9}";
    RevocationList feed =
        read(
            "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":["
                + String.format(entry, 2000)
                + ","
                + String.format(entry, 1000)
                + "]}");

    assertTrue(feed.revokes(null, HASH, 1500));
  }

  @Test
  void whenTheFeedIsEmptyThenNothingIsRevoked() throws IOException {
    RevocationList feed =
        read("{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[]}");

    assertEquals(0, feed.size());
    assertFalse(feed.revokes("j", HASH, Long.MIN_VALUE));
  }

  @Test
  void whenTheSubjectHashIsComputedThenItIsUnpaddedBase64urlOfSha256() {
    // echo -n 'client-a' | sha256sum, in base64url
    assertEquals(43, HASH.length());
    assertFalse(HASH.contains("=") || HASH.contains("+") || HASH.contains("/"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "[]",
        "null",
        "<html>502 Bad Gateway</html>",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[]} {}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[]",
        "{\"issuer\":\"http://127.0.0.1:9090\",\"tokens\":[],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080/\",\"tokens\":[],\"accounts\":[]}",
        "{\"tokens\":[],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":{},\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[\"j1\"],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":1,\"exp\":1}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"\",\"exp\":1}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"j\"}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"j\",\"exp\":\"1\"}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"j\",\"exp\":1.5}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"j\",\"exp\":-1}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"j\",\"exp\":99999999999999999999}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[{\"jti\":\"j\",\"jti\":\"k\",\"exp\":1}],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[{\"sub_sha256\":\"client-a\",\"not_before\":1,\"until\":2}]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[{\"sub_sha256\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB\",\"not_before\":1,\"until\":2}]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[{\"sub_sha256\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\"not_before\":1,\"until\":2}]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[{\"sub_sha256\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"until\":2}]}",
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[{\"sub_sha256\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"not_before\":1}]}",
      })
  void whenTheFeedHasAnotherShapeThenReadingItFails(String json) {
    assertThrows(IOException.class, () -> read(json));
  }

  @Test
  void whenTheFeedIsUtf16ThenReadingItFails() {
    byte[] utf16 =
        "{\"issuer\":\"http://127.0.0.1:8080\",\"tokens\":[],\"accounts\":[]}"
            .getBytes(StandardCharsets.UTF_16LE);

    assertThrows(IOException.class, () -> RevocationList.read(utf16, ISSUER));
  }
}
