-- MariaDB's form of db/h2-postgresql/V2 (signing keys). The key material is base64 text as on the
-- other databases (one entity reads all three), here in ASCII with its binary collation: one byte
-- per character, compared byte for byte.
create table signing_key (
    kid               varchar(64)   not null primary key,
    public_key        varchar(2000) character set ascii collate ascii_nopad_bin not null,
    private_key       varchar(8000) character set ascii collate ascii_nopad_bin not null,
    private_key_nonce varchar(24)   character set ascii collate ascii_nopad_bin not null,
    schedule_slot     varchar(80),
    published_at      datetime(6)   not null,
    active_from       datetime(6)   not null,
    expires_at        datetime(6),
    revoked_at        datetime(6),
    created_at        datetime(6)   not null,
    constraint signing_key_schedule_slot unique (schedule_slot),
    constraint signing_key_published_first check (published_at <= active_from)
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
