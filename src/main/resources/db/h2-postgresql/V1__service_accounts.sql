-- Service accounts (SPEC 2.1, 3.1). One row per account, tombstones included, so the token
-- path is one primary-key read. Scopes and organizations are space-separated words.
create table service_account (
    client_id       varchar(36)  not null primary key,
    name            varchar(200) not null,
    organization_id varchar(64)  not null,
    accessible_orgs varchar(4000) not null,
    scopes          varchar(4000) not null,
    service_name    varchar(100) not null,
    status          varchar(16)  not null,
    secret_digest   varchar(64)  not null,
    created_at      timestamp with time zone not null,
    updated_at      timestamp with time zone not null,
    constraint service_account_status check (status in ('ACTIVE', 'DEACTIVATED', 'DELETED'))
);

create index service_account_organization on service_account (organization_id);

-- At most one generated bootstrap administrator, however many nodes start at once.
create table bootstrap (
    id        integer     not null primary key,
    client_id varchar(36) not null,
    constraint bootstrap_single_row check (id = 1)
);
