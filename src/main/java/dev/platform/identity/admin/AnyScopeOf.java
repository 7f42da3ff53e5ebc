package dev.platform.identity.admin;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The scopes of which a caller of an administration resource method needs one, read by {@link
 * AdminAuth} from the method Jersey matched (or else its class). A method of the administration API
 * without it, Jersey's generated {@code OPTIONS} included, answers to {@code identity:admin} alone:
 * deny by default.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface AnyScopeOf {
  String[] value();
}
