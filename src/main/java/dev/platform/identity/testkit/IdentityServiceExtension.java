package dev.platform.identity.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * {@link IdentityService}'s extension: starts or reuses the service before the class's first test,
 * and resolves {@link LocalIdentity} and {@link Account} parameters.
 */
public final class IdentityServiceExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(IdentityServiceExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    identity(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LocalIdentity.class
        || (type == TestAccount.class && parameter.isAnnotated(Account.class));
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    LocalIdentity identity = identity(context);
    if (parameter.getParameter().getType() == LocalIdentity.class) {
      return identity;
    }
    Account account = parameter.findAnnotation(Account.class).orElseThrow();
    String name = account.name().isEmpty() ? parameter.getParameter().getName() : account.name();
    TestAccount.Builder builder =
        identity
            .account(name)
            .organization(account.organization())
            .accessibleOrganizations(account.accessibleOrganizations())
            .scopes(account.scopes());
    if (account.privateKeyJwt()) {
      builder.privateKeyJwt();
    }
    return builder.create();
  }

  /** The service of the test class: the JVM's one, or the class's own in its store. */
  private static LocalIdentity identity(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    IdentityService settings = settings(testClass);
    if (settings.lifetime() == IdentityService.Lifetime.PER_RUN) {
      return LocalIdentity.shared();
    }
    ExtensionContext classContext = classContext(context);
    return classContext
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(Owned.class, key -> new Owned(LocalIdentity.start()), Owned.class)
        .identity();
  }

  private static IdentityService settings(Class<?> testClass) {
    for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
      IdentityService found = type.getAnnotation(IdentityService.class);
      if (found != null) {
        return found;
      }
    }
    throw new IllegalStateException(testClass + " has no @IdentityService");
  }

  /** The context of the test's class (a {@code @Nested} class's own), whose store JUnit closes. */
  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext at = context;
    while (at.getTestMethod().isPresent() && at.getParent().isPresent()) {
      at = at.getParent().get();
    }
    return at;
  }

  /** A class's own service, stopped when JUnit closes the class's store. */
  private record Owned(LocalIdentity identity)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    @Override
    public void close() {
      identity.close();
    }
  }
}
