package dev.platform.identity.account;

/** SPEC 3.1: where a service account is in its lifecycle. */
public enum AccountStatus {
  ACTIVE,
  DEACTIVATED,
  /** A tombstone: kept so the client_id is never reused and its requests say "revoked". */
  DELETED
}
