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
 * <p>It is a JAX-RS name binding, so it counts where the runtime reads name bindings: on the
 * resource class (and, being {@link Inherited}, on its subclasses) and on the resource method. An
 * interface's annotations are not read; put it on the class.
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
