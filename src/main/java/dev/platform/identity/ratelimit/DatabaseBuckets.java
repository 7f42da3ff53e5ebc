package dev.platform.identity.ratelimit;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Buckets in PostgreSQL (table {@code rate_limit_bucket}, migration V4), shared by every node:
 * Bucket4j reads and writes a bucket's state under {@code SELECT ... FOR UPDATE}. Rows expire once
 * their bucket would be full again, and {@link #removeExpired()} deletes them.
 */
final class DatabaseBuckets implements BucketStore {
  /** Rows deleted by one statement, in a transaction of its own. */
  static final int CLEANUP_BATCH = 1000;

  /**
   * Batches in one {@link #removeExpired()} run. The run holds the scheduler thread that also
   * refreshes the scope catalog, so it stops after this many (100,000 rows) and leaves the rest for
   * the next run a minute later. A stranger's request with a random UUID as client_id leaves three
   * rows (its pair, client-failure and success buckets), so outgrowing that takes some 550 such
   * requests a second (from about 110 addresses, at 300 failures a minute each).
   */
  static final int CLEANUP_MAX_BATCHES = 100;

  private final PostgreSQLSelectForUpdateBasedProxyManager<String> buckets;

  DatabaseBuckets(DataSource dataSource, TimeMeter time) {
    this.buckets =
        Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
            .primaryKeyMapper(PrimaryKeyMapper.STRING)
            .table("rate_limit_bucket")
            .idColumn("id")
            .stateColumn("state")
            .expiresAtColumn("expires_at")
            .clientClock(time)
            .expirationAfterWrite(
                ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                    Duration.ofSeconds(10)))
            .build();
  }

  @Override
  public Bucket bucket(String key, Budget budget) {
    return buckets.builder().build(key, budget::configuration);
  }

  /**
   * Deletes the rows of buckets that have refilled, up to the bound of one run; returns how many.
   */
  int removeExpired() {
    return removeExpired(CLEANUP_BATCH, CLEANUP_MAX_BATCHES);
  }

  /** Deletes batch after batch until one comes back short (none are left) or maxBatches ran. */
  int removeExpired(int batchSize, int maxBatches) {
    int removed = 0;
    for (int i = 0; i < maxBatches; i++) {
      int batch = buckets.removeExpired(batchSize);
      removed += batch;
      if (batch < batchSize) {
        break;
      }
    }
    return removed;
  }
}
