package dev.platform.identity.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Starts the real identity service for the annotated test class, and injects a {@link
 * LocalIdentity} and {@link Account}-annotated {@link TestAccount}s into its constructors, test
 * methods and lifecycle methods.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(IdentityServiceExtension.class)
public @interface IdentityService {
  /** How long one service lives. */
  enum Lifetime {
    /** One service for every class of the JVM that asks for it ({@link LocalIdentity#shared()}). */
    PER_RUN,
    /** A service of this class's own, stopped after its last test. */
    PER_CLASS
  }

  /** {@link Lifetime#PER_RUN} unless the class needs a service to itself. */
  Lifetime lifetime() default Lifetime.PER_RUN;
}
