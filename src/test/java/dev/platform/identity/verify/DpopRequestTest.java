package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which URI a proof must name. Found by the attacker's review: a proof's {@code htu} is compared
 * after RFC 3986's normalisation, which removes dot segments, while Jersey routes {@code
 * /accounts/%2e} to the account named "."; so a path with a dot segment is refused any proof.
 */
class DpopRequestTest {
  @Test
  void whenThePathHoldsADotSegmentAsWrittenOrEncodedThenNoProofNamesIt() {
    for (String path :
        List.of(
            "/admin/v1/service-accounts/%2e",
            "/admin/v1/service-accounts/%2E%2e", "/a/./b", "/a/../b", "/a/..", "/a/%2e/b")) {
      assertTrue(DpopRequest.hasDotSegment(path), path);
      assertEquals(
          DpopRequest.NO_TARGET,
          DpopRequest.target(List.of(), URI.create("https://api.example" + path)),
          path);
    }
  }

  @Test
  void whenAnAdminPathIsOnlyADotSegmentThenItHoldsOne() {
    // AdminAuth reads the path under the application, without its leading slash.
    assertTrue(DpopRequest.hasDotSegment("."));
    assertTrue(DpopRequest.hasDotSegment("admin/v1/service-accounts/%2e"));
  }

  @Test
  void whenDotsArePartOfANameThenThePathIsTaken() {
    for (String path : List.of("/a.b/c", "/.well-known/x", "/a/...", "/v1.2/%2ex", "/", "")) {
      assertFalse(DpopRequest.hasDotSegment(path), path);
    }
    URI plain = URI.create("https://api.example/orders/7?x=1");
    assertEquals(plain, DpopRequest.target(List.of(), plain));
    assertEquals(
        URI.create("https://public.example/orders/7?x=1"),
        DpopRequest.target(List.of(URI.create("https://public.example")), plain));
  }
}
