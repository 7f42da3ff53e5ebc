package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerifiedTokenTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Verified claims as the verifier hands them over: with {@code exp} and {@code iss}. */
  private static VerifiedToken token(Map<String, ?> claims) {
    Map<String, Object> verified = new HashMap<>(claims);
    verified.put("iss", TestTokens.ISSUER);
    verified.put("exp", TestTokens.EXPIRES_AT.getEpochSecond());
    try {
      return TokenClaims.read(JSON.writeValueAsBytes(verified)).verifiedToken();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static VerifiedToken withScopes(String... scopes) {
    return token(Map.of("client_id", TestTokens.CLIENT_ID, "scopes", List.of(scopes)));
  }

  @ParameterizedTest
  @CsvSource({
    "catalog:products.view, catalog:products.view",
    "catalog:*, catalog:*",
    "catalog:*, catalog:products.view",
    "catalog:*, catalog:anything",
  })
  void whenGrantedScopeCoversTheRequiredOneThenHasScope(String granted, String required) {
    assertTrue(withScopes(granted).hasScope(required));
  }

  @ParameterizedTest
  @CsvSource({
    "catalog:*, catalogue:products.view",
    "catalog:*, marketing:*",
    "catalog:*, marketing:content.view",
    "catalog:products.view, catalog:*",
    "catalog:products.view, catalog:categories.view",
    "catalog:products.view, catalog:products.view.extra",
    ":*, :products.view",
    "*, catalog:products.view",
    "a:b:*, a:b:c",
  })
  void whenGrantedScopeDoesNotCoverTheRequiredOneThenNot(String granted, String required) {
    assertFalse(withScopes(granted).hasScope(required));
  }

  @Test
  void whenSeveralScopesAreMissingThenEachIsNamedOnceInTheOrderRequired() {
    AccessDeniedException e =
        assertThrows(
            AccessDeniedException.class,
            () ->
                withScopes("catalog:*")
                    .requireScopes(
                        List.of(
                            "kitchen:orders.create", "catalog:x", "kitchen:orders.create", "b:c")));

    assertEquals(List.of("kitchen:orders.create", "b:c"), e.missingScopes());
  }

  @Test
  void whenOrganizationIsThePrimaryOrAnAccessibleOneThenHasOrganization() {
    VerifiedToken token =
        token(
            Map.of(
                "sub", "client",
                "organization_id", "org-a",
                "accessible_orgs", List.of("org-b")));

    assertTrue(token.hasOrganization("org-a"));
    assertTrue(token.hasOrganization("org-b"));
    assertFalse(token.hasOrganization("org-c"));
    assertFalse(token.hasOrganization("ORG-A"));
  }

  @Test
  void whenTokenHasNoOrganizationClaimsThenNoOrganizationIsAccessible() {
    VerifiedToken token = token(Map.of("sub", "client"));

    assertThrows(AccessDeniedException.class, () -> token.requireOrganization("org-a"));
  }

  @Test
  void whenClientIdIsAbsentThenSubjectStandsForIt() {
    VerifiedToken token = token(Map.of("sub", "client-by-sub"));

    assertEquals("client-by-sub", token.clientId());
    assertEquals(List.of(), token.scopes());
    assertEquals(ChannelPermissions.NONE, token.channelPermissions());
    assertEquals(Optional.empty(), token.organizationId());
  }

  @Test
  void whenNeitherClientIdNorSubjectThenUnauthenticatedInvalid() {
    UnauthenticatedException e =
        assertThrows(UnauthenticatedException.class, () -> token(Map.of("token_type", "user")));

    assertEquals("invalid token", e.getMessage());
  }

  @Test
  void whenClaimsHaveTheWrongTypeThenUnauthenticatedInvalid() {
    List<Map<String, ?>> broken =
        List.of(
            Map.of("sub", "c", "client_id", 7),
            Map.of("sub", "c", "accessible_orgs", "org-a"),
            Map.of("sub", "c", "scopes", List.of("catalog:*", 3)),
            Map.of("sub", "c", "channel_permissions", List.of("catalog.*")),
            Map.of("sub", "c", "channel_permissions", Map.of("publish", "catalog.*")));

    for (Map<String, ?> claims : broken) {
      assertThrows(UnauthenticatedException.class, () -> token(claims), claims.toString());
    }
  }

  @Test
  void whenPrintedThenOnlyClientAndScopesShow() {
    assertEquals(
        "VerifiedToken[clientId=c, scopes=[catalog:*]]",
        token(Map.of("sub", "c", "scopes", List.of("catalog:*"))).toString());
  }
}
