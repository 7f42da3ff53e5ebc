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
  private static final int CLEANUP_BATCH = 1000;

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

  /** Deletes the rows of buckets that have refilled; returns how many. */
  int removeExpired() {
    return buckets.removeExpired(CLEANUP_BATCH);
  }
}
