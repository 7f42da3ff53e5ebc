package dev.platform.identity.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link TestAccount} parameter of a class with {@link IdentityService}: a new account with
 * these properties, created for the call.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Account {
  /** Its scopes, {@code service:resource.action}. */
  String[] scopes();

  /** Its {@code organization_id}. */
  String organization() default "org-test";

  /** More organizations in its {@code accessible_orgs}. */
  String[] accessibleOrganizations() default {};

  /** Whether it authenticates with {@code private_key_jwt} rather than a secret. */
  boolean privateKeyJwt() default false;

  /** Its name; the parameter's when empty. */
  String name() default "";
}
