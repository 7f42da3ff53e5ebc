package dev.platform.identity.ratelimit;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Buckets in this node's memory, at most {@code maxEntries} of them: the least recently used one
 * goes first, so a flood of random client_ids cannot grow the map. Forgetting a bucket is safe: a
 * bucket untouched for a minute has refilled anyway, and one kept busy stays.
 */
final class MemoryBuckets implements BucketStore {
  static final int DEFAULT_MAX_ENTRIES = 100_000;

  private final TimeMeter time;
  private final Map<String, Bucket> buckets;

  MemoryBuckets(TimeMeter time, int maxEntries) {
    this.time = time;
    this.buckets =
        new LinkedHashMap<>(1024, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > maxEntries;
          }
        };
  }

  @Override
  public synchronized Bucket bucket(String key, Budget budget) {
    return buckets.computeIfAbsent(
        key,
        k ->
            Bucket.builder()
                .addLimit(budget.configuration().getBandwidths()[0])
                .withCustomTimePrecision(time)
                .build());
  }

  synchronized int size() {
    return buckets.size();
  }
}
