package dev.platform.identity.ratelimit;

import dev.platform.identity.db.Vendor;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.AbstractJdbcProxyManagerBuilder;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.distributed.proxy.ExpiredEntriesCleaner;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.AbstractSelectForUpdateBasedProxyManager;
import io.github.bucket4j.mysql.Bucket4jMySQL;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Buckets in PostgreSQL or MariaDB (table {@code rate_limit_bucket}, migration V4), shared by every
 * node: Bucket4j's proxy manager for that database (its PostgreSQL or its MySQL module) reads and
 * writes a bucket's state under {@code SELECT ... FOR UPDATE}. Rows expire once their bucket would
 * be full again, and {@link #removeExpired()} deletes them.
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

  private final AbstractSelectForUpdateBasedProxyManager<String> buckets;
  private final ExpiredEntriesCleaner cleaner;

  DatabaseBuckets(DataSource dataSource, Vendor vendor, TimeMeter time) {
    var built =
        switch (vendor) {
          case POSTGRESQL ->
              configured(
                      Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
                          .primaryKeyMapper(PrimaryKeyMapper.STRING),
                      time)
                  .build();
          case MARIADB ->
              configured(
                      Bucket4jMySQL.selectForUpdateBasedBuilder(MariaDbDeadlocks.wrap(dataSource))
                          .primaryKeyMapper(PrimaryKeyMapper.STRING),
                      time)
                  .build();
          case H2 -> throw new IllegalArgumentException("Bucket4j keeps no buckets in H2");
        };
    this.buckets = built;
    this.cleaner = built;
  }

  /** The table of migration V4, and rows that expire once their bucket has refilled. */
  private static <B extends AbstractJdbcProxyManagerBuilder<String, ?, B>> B configured(
      B builder, TimeMeter time) {
    return builder
        .table("rate_limit_bucket")
        .idColumn("id")
        .stateColumn("state")
        .expiresAtColumn("expires_at")
        .clientClock(time)
        .expirationAfterWrite(
            ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                Duration.ofSeconds(10)));
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
      int batch = cleaner.removeExpired(batchSize);
      removed += batch;
      if (batch < batchSize) {
        break;
      }
    }
    return removed;
  }
}
