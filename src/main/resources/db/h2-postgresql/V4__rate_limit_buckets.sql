-- Rate-limit buckets shared by every node (identity/rateLimitStore = database; PostgreSQL only):
-- Bucket4j's PostgreSQL proxy manager keeps each bucket's state here under SELECT ... FOR UPDATE.
-- expires_at (epoch milliseconds) is when the bucket would be full again; such rows are deleted.
-- The table is created on H2 too (bytea is an H2 alias of varbinary), where nothing uses it.
create table rate_limit_bucket (
    id         varchar(200) not null primary key,
    state      bytea,
    expires_at bigint
);
