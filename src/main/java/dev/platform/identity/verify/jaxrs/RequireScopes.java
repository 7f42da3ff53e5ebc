package dev.platform.identity.verify.jaxrs;

import jakarta.ws.rs.NameBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource method, or every method of a resource class, as needing a valid bearer token
 * that covers the scopes given ({@link BearerTokenFilter}). On a method of a class that has it too,
 * the token needs the scopes of both: a method can add to its class's scopes, never drop them.
 * {@code @RequireScopes} with no scope asks for a valid token only.
 *
 * <p>{@link BearerTokenFilter} reads it wherever it stands on what the runtime matched: the
 * resource method or a method it overrides or implements (in a superclass or an interface), the
 * resource class, its superclasses or interfaces, and the class of a sub-resource locator the
 * request passed through. It is also a JAX-RS name binding, for filters of the application's own;
 * the ready-made filter does not rely on name binding, whose rules would miss some of those places.
 * On a sub-resource locator method itself it is not read: put it on the locator's class or on the
 * sub-resource.
 */
@NameBinding
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface RequireScopes {
  /** The scopes the token must cover, all of them ({@code VerifiedToken.hasScope}). */
  String[] value() default {};
}
