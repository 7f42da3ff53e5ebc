/** Issue 43's example: a team's JAX-RS API, tested with the test kit in {@code OrdersApiIT}. */
package dev.platform.identity.it.orders;
