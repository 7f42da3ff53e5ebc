-- Issue 38: revoked access tokens. A token is revoked when its jti is in revoked_token, or when
-- its iat lies before its account's not_before in account_token_cutoff. A row is kept only while a
-- token it covers can still be valid: a jti until the token's exp (expires_at), a cut-off until
-- not_before plus the longest token lifetime (covers_until); the service deletes older rows.
-- Every node holds all rows in memory and reads them anew whenever revocation_version.version
-- has moved: every revocation raises it in its own transaction, so one primary-key read a second
-- tells a node whether anything changed, and a transaction that commits late is seen all the same.
create table revoked_token (
    jti        varchar(36) primary key,
    client_id  varchar(36) not null,
    expires_at timestamp with time zone not null,
    revoked_at timestamp with time zone not null
);
create index revoked_token_expiry on revoked_token (expires_at);

create table account_token_cutoff (
    client_id    varchar(36) primary key,
    not_before   timestamp with time zone not null,
    covers_until timestamp with time zone not null
);
create index account_token_cutoff_expiry on account_token_cutoff (covers_until);

create table revocation_version (
    id      integer primary key,
    version bigint not null
);
insert into revocation_version (id, version) values (1, 0);

-- The scope of POST /oauth/introspect (RFC 7662): resource servers that ask whether a token is
-- active. Like the other identity: scopes it names no channels, and only identity:admin grants it.
insert into scope_catalog (name, description, subscribe_channels, publish_channels, replay_channels) values
    ('identity:introspect', 'Ask POST /oauth/introspect whether a token of this service is active.', '', '', '');
