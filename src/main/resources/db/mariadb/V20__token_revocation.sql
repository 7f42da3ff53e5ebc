-- MariaDB's form of db/h2-postgresql/V20 (revoked access tokens and the revocation version).
create table revoked_token (
    jti        varchar(36) primary key,
    client_id  varchar(36) not null,
    expires_at datetime(6) not null,
    revoked_at datetime(6) not null
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
create index revoked_token_expiry on revoked_token (expires_at);

create table account_token_cutoff (
    client_id    varchar(36) primary key,
    not_before   datetime(6) not null,
    covers_until datetime(6) not null
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
create index account_token_cutoff_expiry on account_token_cutoff (covers_until);

create table revocation_version (
    id      integer primary key,
    version bigint not null
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
insert into revocation_version (id, version) values (1, 0);

insert into scope_catalog (name, description, subscribe_channels, publish_channels, replay_channels) values
    ('identity:introspect', 'Ask POST /oauth/introspect whether a token of this service is active.', '', '', '');
