package dev.platform.identity.key;

import dev.platform.identity.config.Settings;
import dev.platform.identity.db.Database;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A node's signing keys: the store, the ring that signs and lists, and the rotation that keeps the
 * ring current. Built in one place so that the tests' nodes are wired as a started service is; the
 * rotation is not started, which is the caller's step.
 *
 * @param keys the stored keys, sealed by the private keys' encryption
 * @param ring what the token path signs with and the key list shows
 * @param rotation the schedule and the operators' key operations, over {@code ring}
 */
public record KeyNode(SigningKeys keys, KeyRing ring, KeyRotation rotation) {
  /**
   * The keys of a node on {@code database}.
   *
   * @param privateKeys where private keys are made and opened; their encryption seals the rows
   * @param scheduler the daemon scheduler that runs the rotation's refresh; its owner shuts it down
   */
  public static KeyNode of(
      Database database,
      PrivateKeys privateKeys,
      Settings.Keys policy,
      Clock clock,
      SecureRandom random,
      ScheduledExecutorService scheduler) {
    SigningKeys keys = new SigningKeys(database, privateKeys.encryption());
    KeyRing ring = new KeyRing(keys, privateKeys, policy.schedule(), clock);
    return new KeyNode(
        keys, ring, new KeyRotation(keys, ring, privateKeys, policy, clock, random, scheduler));
  }
}
