package dev.platform.identity.console;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The administration API's resource method that a console method performs: {@link ConsoleAuth} asks
 * the caller for that method's scopes, read from its {@code AnyScopeOf}, so the console holds no
 * copy of which scope allows what. A console method without it or {@code AnyScopeOf} of its own
 * answers to {@code identity:admin} alone, as the API's do: deny by default.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Performs {
  /** The API's resource class. */
  Class<?> resource();

  /** The name of its resource method, unique in that class. */
  String method();
}
