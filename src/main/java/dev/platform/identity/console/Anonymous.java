package dev.platform.identity.console;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A console method that answers without a session: the login form, the login itself and the
 * stylesheet and script. Every other console method needs one ({@link ConsoleAuth}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Anonymous {}
