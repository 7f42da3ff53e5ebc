package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SurfaceTest {
  @Test
  void whenPathIsAnEndpointOrBelowItThenItsSurface() {
    assertEquals(Surface.TOKEN, Surface.of("/oauth/token"));
    assertEquals(Surface.TOKEN, Surface.of("/oauth/token/x"));
    assertEquals(Surface.TOKEN, Surface.of("/oauth/revoke"));
    assertEquals(Surface.TOKEN, Surface.of("/OAUTH/introspect/x"));
    assertEquals(Surface.OTHER, Surface.of("/oauth/revocations"));
    assertEquals(Surface.ADMINISTRATION, Surface.of("/admin/v1"));
    assertEquals(Surface.ADMINISTRATION, Surface.of("/admin/v1/service-accounts/a/b"));
    assertEquals(Surface.KEYS, Surface.of("/api/public-keys"));
    assertEquals(Surface.KEYS, Surface.of("/api/public-keys/a/b"));
  }

  @Test
  void whenPathOnlySharesAPrefixThenOther() {
    assertEquals(Surface.OTHER, Surface.of("/oauth/tokens"));
    assertEquals(Surface.OTHER, Surface.of("/admin/v10"));
    assertEquals(Surface.OTHER, Surface.of("/api/public-keysx"));
    assertEquals(Surface.OTHER, Surface.of("/"));
    assertEquals(Surface.OTHER, Surface.of(""));
  }

  @Test
  void whenPathHasParametersOrRepeatedSlashesThenTheyDoNotHideTheSurface() {
    assertEquals(Surface.TOKEN, Surface.of("//oauth/token;x"));
    assertEquals(Surface.TOKEN, Surface.of("/oauth;a=b/token/"));
    assertEquals(Surface.KEYS, Surface.of("/./api//public-keys/./kid"));
  }

  @Test
  void whenDotSegmentsClimbThenTheSurfaceOfWhereTheyLead() {
    assertEquals(Surface.OTHER, Surface.of("/oauth/token/.."));
    assertEquals(Surface.OTHER, Surface.of("/api/public-keys/../../WEB-INF/web.xml"));
    assertEquals(Surface.OTHER, Surface.of("/api/public-keys/%2e%2E/%2E%2e/WEB-INF/web.xml"));
    assertEquals(Surface.ADMINISTRATION, Surface.of("/oauth/../admin/v1/x"));
    assertEquals(Surface.TOKEN, Surface.of("/../../oauth/token"));
  }

  @Test
  void whenNormalizedThenOnlyDotSegmentsParametersAndEmptySegmentsGo() {
    assertEquals("/api/public-keys/a%2Fb", Surface.normalize("/api/public-keys/a%2Fb;v=1"));
    assertEquals("/a/c", Surface.normalize("//a/./b/../c/"));
  }
}
