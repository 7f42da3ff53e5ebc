package dev.platform.identity.account;

import java.util.List;

/** Profiles for test accounts (STYLE 15: fixtures as builders). */
public final class TestAccounts {
  private TestAccounts() {}

  /** The id a test digest names when its pepper does not matter. */
  public static final String PEPPER_ID = "0123456789abcdef";

  /** A stored digest of {@code value} under a pepper that does not matter. */
  public static SecretDigest.Digest digest(String value) {
    return new SecretDigest.Digest(value, PEPPER_ID);
  }

  public static AccountProfile catalogReader() {
    return new AccountProfile(
        "catalog reader", "org-a", List.of("org-b"), List.of("catalog:products.view"), "catalog");
  }
}
