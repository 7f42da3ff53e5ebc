/**
 * The operator's console at {@code /console}: HTML pages over the administration API's own
 * resources and rules, with sessions sealed in a cookie so that any node serves any request.
 */
package dev.platform.identity.console;
