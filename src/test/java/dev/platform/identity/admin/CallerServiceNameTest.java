package dev.platform.identity.admin;

import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static dev.platform.identity.verify.TestTokens.signed;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.TestTokens;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 36 item 5: a caller without {@code identity:admin} gives a new account the service name
 * (SPEC 2.5 {@code service_name}, the token's primary service) of a scope the account is granted,
 * never a service of its choosing.
 */
class CallerServiceNameTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final BearerVerifier VERIFIER =
      BearerVerifier.builder()
          .issuer(ISSUER)
          .clock(CLOCK)
          .keyLocator(kid -> Optional.of(KEYS.getPublic()))
          .build();

  /** A caller of organization org-a holding {@code scopes}; {@code grantable} as configured. */
  private static AdminAuth.Caller caller(List<String> scopes, List<String> grantable) {
    String token =
        signed(
            serviceAccount().claim("scopes", scopes).claim("permissions", scopes),
            KEYS.getPrivate());
    return new AdminAuth.Caller(
        VERIFIER.verify("Bearer " + token, List.of()), "127.0.0.1", new AuditLog(CLOCK), grantable);
  }

  private static final AdminAuth.Caller MANAGER =
      caller(List.of(AdminAuth.ACCOUNTS, "catalog:products.view"), List.of());

  private static AccountProfile profile(String service, String... scopes) {
    return new AccountProfile("svc", "org-a", List.of(), List.of(scopes), service);
  }

  private static ApiError refused(AdminAuth.Caller caller, AccountProfile profile) {
    return assertThrows(ApiError.class, () -> caller.requireMayCreate(profile));
  }

  @Test
  void whenAManagerNamesAServiceItHoldsNoScopeOfThenForbiddenNamingTheAllowedOnes() {
    ApiError error = refused(MANAGER, profile("kitchen", "catalog:products.view"));

    assertEquals(403, error.status());
    assertEquals(
        "Without identity:admin, service_name must be the service of a granted scope (catalog),"
            + " not kitchen",
        error.getMessage());
  }

  @Test
  void whenAManagerNamesIdentityThenForbidden() {
    ApiError error = refused(MANAGER, profile("identity", "catalog:products.view"));

    assertEquals(403, error.status());
    assertTrue(error.getMessage().contains("identity"), error.getMessage());
  }

  @Test
  void whenAManagerNamesTheServiceOfTheGrantedScopeThenAllowed() {
    assertDoesNotThrow(() -> MANAGER.requireMayCreate(profile("catalog", "catalog:products.view")));
  }

  @Test
  void whenAServiceIsGrantableButNotGrantedThenItIsNotTheAccountsService() {
    AdminAuth.Caller caller =
        caller(List.of(AdminAuth.ACCOUNTS, "catalog:products.view"), List.of("kitchen:*"));

    assertEquals(403, refused(caller, profile("kitchen", "catalog:products.view")).status());
    assertDoesNotThrow(
        () ->
            caller.requireMayCreate(
                profile("kitchen", "catalog:products.view", "kitchen:orders.create")));
  }

  @Test
  void whenTheNameDiffersOnlyInCaseOrIsEmptyThenItIsNoGrantedService() {
    for (String service : List.of("Catalog", "CATALOG", "", "catalog ", "catalog:products")) {
      assertEquals(
          403, refused(MANAGER, profile(service, "catalog:products.view")).status(), service);
    }
  }

  @Test
  void whenAnAdministratorNamesAnyServiceThenAllowed() {
    AdminAuth.Caller admin = caller(List.of(AdminAuth.ADMIN), List.of());

    assertDoesNotThrow(() -> admin.requireMayCreate(profile("kitchen", "catalog:products.view")));
    assertDoesNotThrow(() -> admin.requireMayCreate(profile("identity", "catalog:products.view")));
  }

  @Test
  void whenAnAccountCarriesAServiceTheManagerCouldNotNameThenItIsOutOfReach() {
    ServiceAccount foreign =
        ServiceAccount.createWithKeys(
            UUID.randomUUID(),
            profile("kitchen", "catalog:products.view"),
            new ServiceAccount.Keys(null, "https://keys.example.test/jwks"),
            Instant.EPOCH);
    ServiceAccount own =
        ServiceAccount.createWithKeys(
            UUID.randomUUID(),
            profile("catalog", "catalog:products.view"),
            new ServiceAccount.Keys(null, "https://keys.example.test/jwks"),
            Instant.EPOCH);

    assertFalse(MANAGER.reaches(foreign));
    assertTrue(MANAGER.reaches(own));
  }

  @Test
  void whenAManagerIsRefusedThenTheRefusalIsAudited() {
    try (LogCapture audit = LogCapture.of(AuditLog.LOGGER)) {
      refused(MANAGER, profile("kitchen", "catalog:products.view"));

      assertEquals(1, audit.messages().size(), audit.messages().toString());
      assertTrue(audit.messages().get(0).contains("forbidden"), audit.messages().toString());
    }
  }
}
