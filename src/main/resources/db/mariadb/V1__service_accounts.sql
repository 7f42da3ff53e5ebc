-- MariaDB's form of db/h2-postgresql/V1 (service accounts, SPEC 2.1, 3.1), the same columns and
-- rules. Every table here is InnoDB in utf8mb4 with the binary collation utf8mb4_nopad_bin, so an id, a
-- name or a digest compares byte for byte as on PostgreSQL and H2: never case-insensitively, and
-- never ignoring trailing spaces as utf8mb4_bin (a PAD SPACE collation) would.
-- Times are DATETIME(6): microseconds, as PostgreSQL keeps them, always written in UTC (the
-- service checks at start that the connection does so: docs/configuration.md "MariaDB").
-- The word lists are TEXT with the same limit as a CHECK: two VARCHAR(4000) of utf8mb4 would
-- pass InnoDB's 65,535-byte row limit.
create table service_account (
    client_id       varchar(36)  not null primary key,
    name            varchar(200) not null,
    organization_id varchar(64)  not null,
    accessible_orgs text         not null,
    scopes          text         not null,
    service_name    varchar(100) not null,
    status          varchar(16)  not null,
    secret_digest   varchar(64)  not null,
    created_at      datetime(6)  not null,
    updated_at      datetime(6)  not null,
    constraint service_account_status check (status in ('ACTIVE', 'DEACTIVATED', 'DELETED')),
    constraint service_account_accessible_orgs_length check (char_length(accessible_orgs) <= 4000),
    constraint service_account_scopes_length check (char_length(scopes) <= 4000)
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;

create index service_account_organization on service_account (organization_id);

create table bootstrap (
    id        integer     not null primary key,
    client_id varchar(36) not null,
    constraint bootstrap_single_row check (id = 1)
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
