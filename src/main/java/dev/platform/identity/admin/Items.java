package dev.platform.identity.admin;

import java.util.List;

/**
 * A listing as the administration API answers it: {@code {"items":[...]}} (accounts, scopes, keys).
 */
public record Items<T>(List<T> items) {}
