package dev.platform.identity.account;

import java.util.List;

/** Profiles for test accounts (STYLE 15: fixtures as builders). */
public final class TestAccounts {
  private TestAccounts() {}

  public static AccountProfile catalogReader() {
    return new AccountProfile(
        "catalog reader", "org-a", List.of("org-b"), List.of("catalog:products.view"), "catalog");
  }
}
