-- MariaDB's form of db/h2-postgresql/V15 (the audit trail): the id from AUTO_INCREMENT, times in
-- DATETIME(6), the same indexes (InnoDB's 3,072-byte key limit holds: 200 characters at most).
create table audit_event (
    id              bigint        not null auto_increment primary key,
    occurred_at     datetime(6)   not null,
    event           varchar(64)   not null,
    actor           varchar(200),
    target          varchar(200),
    organization_id varchar(64),
    outcome         varchar(64)   not null,
    remote_address  varchar(100),
    detail          varchar(2000) not null
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;

create index audit_event_time on audit_event (occurred_at, id);
create index audit_event_event on audit_event (event, occurred_at, id);
create index audit_event_actor on audit_event (actor, occurred_at, id);
create index audit_event_target on audit_event (target, occurred_at, id);
create index audit_event_organization on audit_event (organization_id, occurred_at, id);

create table audit_exhausted_window (
    bucket       varchar(200) not null,
    window_start datetime(6)  not null,
    primary key (bucket, window_start)
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;

create table audit_retention_lock (
    id       int not null primary key,
    last_run datetime(6)
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
insert into audit_retention_lock (id, last_run) values (1, null);

insert into scope_catalog (name, description, subscribe_channels, publish_channels, replay_channels) values
    ('identity:audit.read', 'Read the audit trail (of the organizations in the token''s accessible_orgs, without identity:admin).', '', '', '');
