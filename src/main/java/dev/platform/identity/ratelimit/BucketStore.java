package dev.platform.identity.ratelimit;

import io.github.bucket4j.Bucket;

/**
 * Where buckets live: this node's memory, or the database that several nodes share. The one place
 * with two real implementations ({@link MemoryBuckets}, {@link DatabaseBuckets}).
 */
interface BucketStore {
  /** The bucket of {@code key}, created full with {@code budget} when it does not exist. */
  Bucket bucket(String key, Budget budget);
}
