-- MariaDB's form of db/h2-postgresql/V4: Bucket4j's MySQL proxy manager keeps each bucket's state
-- here under SELECT ... FOR UPDATE (identity/rateLimitStore = database).
create table rate_limit_bucket (
    id         varchar(200) not null primary key,
    state      blob,
    expires_at bigint
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
