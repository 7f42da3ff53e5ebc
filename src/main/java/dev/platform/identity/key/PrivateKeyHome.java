package dev.platform.identity.key;

/** Where a signing key's private half lives, as the {@code private_key_home} column names it. */
enum PrivateKeyHome {
  /** Sealed under the key-encryption key in the row itself (DESIGN decision 5). */
  DATABASE("database"),
  /** Inside the configured PKCS#11 token, under the kid; the row holds no private bytes. */
  PKCS11("pkcs11");

  private final String column;

  PrivateKeyHome(String column) {
    this.column = column;
  }

  /** The value of the column. */
  String column() {
    return column;
  }

  /**
   * The home the column names.
   *
   * @throws IllegalStateException for any other value (the check constraint allows none)
   */
  static PrivateKeyHome of(String column) {
    for (PrivateKeyHome home : values()) {
      if (home.column.equals(column)) {
        return home;
      }
    }
    throw new IllegalStateException("unknown private_key_home '" + column + "'");
  }
}
