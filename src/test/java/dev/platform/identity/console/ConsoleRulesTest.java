package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.ServiceAccountsResource;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The console's authorisation is the API's: each of its resource methods names the API method it
 * performs (or, for a page of its own, the scopes it shows to), only the login form and its assets
 * answer without a session, and nothing is decided by a copy of a rule.
 */
class ConsoleRulesTest {
  /** The methods that answer without a session: nothing else may. */
  static final Set<String> ANONYMOUS =
      Set.of("ConsoleResource.loginForm", "ConsoleResource.login", "ConsoleResource.asset");

  static Stream<Method> resourceMethods() {
    return Arrays.stream(consoleResources())
        .flatMap(type -> Arrays.stream(type.getDeclaredMethods()))
        .filter(
            method ->
                Arrays.stream(method.getAnnotations())
                    .anyMatch(
                        annotation ->
                            annotation.annotationType().isAnnotationPresent(HttpMethod.class)));
  }

  static Class<?>[] consoleResources() {
    dev.platform.identity.config.Settings settings =
        dev.platform.identity.config.TestSettings.with(java.util.Map.of());
    return new Console(null, null, null, null)
            .components(
                settings.tokens().issuer(),
                settings.secrets(),
                settings.accounts(),
                settings.operations(),
                null,
                null,
                null,
                null,
                null,
                java.time.Clock.systemUTC(),
                new java.security.SecureRandom())
            .stream()
            .map(Object::getClass)
            .filter(type -> type.isAnnotationPresent(Path.class))
            .toArray(Class<?>[]::new);
  }

  @Test
  void whenAConsoleMethodRunsThenItNeedsASessionUnlessItIsTheLoginOrAnAsset() {
    List<Method> methods = resourceMethods().toList();
    assertTrue(methods.size() >= 10, methods.toString());
    for (Method method : methods) {
      String name = method.getDeclaringClass().getSimpleName() + "." + method.getName();
      assertEquals(ANONYMOUS.contains(name), method.isAnnotationPresent(Anonymous.class), name);
    }
  }

  @Test
  void whenAConsoleMethodChangesOrShowsAnApiResourceThenItAsksTheApiMethodsScopes() {
    for (Method method : resourceMethods().toList()) {
      String name = method.getDeclaringClass().getSimpleName() + "." + method.getName();
      Performs performs = method.getAnnotation(Performs.class);
      if (performs == null) {
        assertTrue(
            method.isAnnotationPresent(Anonymous.class)
                || method.isAnnotationPresent(dev.platform.identity.admin.AnyScopeOf.class),
            name + " names neither the API method it performs nor scopes of its own");
        continue;
      }
      Method api = ConsoleAuth.apiMethod(performs.resource(), performs.method());
      assertEquals(AdminAuth.requiredScopes(api), ConsoleAuth.requiredScopes(method), name);
    }
  }

  @Test
  void whenAConsoleMethodNamesNoScopesThenOnlyTheAdministratorPasses() throws Exception {
    Method bare = ConsoleRulesTest.class.getDeclaredMethod("bare");
    assertEquals(List.of(AdminAuth.ADMIN), ConsoleAuth.requiredScopes(bare));
    assertEquals(List.of(AdminAuth.ADMIN), ConsoleAuth.requiredScopes(null));
    Method list = ConsoleAuth.apiMethod(ServiceAccountsResource.class, "list");
    assertEquals(List.of(AdminAuth.ADMIN, AdminAuth.ACCOUNTS), AdminAuth.requiredScopes(list));
  }

  @SuppressWarnings("unused")
  private void bare() {}
}
