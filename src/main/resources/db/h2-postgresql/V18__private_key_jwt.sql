-- Issue 22: clients that authenticate with private_key_jwt (RFC 7523) hold no secret, only public
-- keys: a JWK set stored here, or the https URL the client publishes its set at. Accounts made
-- before keep their secret and their method, client_secret_basic, which also accepts
-- client_secret_post (SPEC 4.1).
alter table service_account add column token_endpoint_auth_method varchar(32)
    default 'client_secret_basic' not null;
alter table service_account add column jwks varchar(20000);
alter table service_account add column jwks_uri varchar(2000);
alter table service_account alter column secret_digest drop not null;
alter table service_account alter column secret_pepper_id drop not null;
alter table service_account alter column secret_created_at drop not null;
alter table service_account add constraint service_account_credential check (
    (token_endpoint_auth_method = 'private_key_jwt'
        and secret_digest is null and secret_pepper_id is null and secret_created_at is null
        and previous_secret_digest is null
        and (jwks is null) <> (jwks_uri is null))
    or (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post')
        and secret_digest is not null and secret_pepper_id is not null
        and secret_created_at is not null
        and jwks is null and jwks_uri is null));

-- The jti of every assertion accepted, until its exp has passed (RFC 7523 §3 item 7): the unique
-- key makes a replay fail on every node at once. The jti is kept as its SHA-256 (base64url), so a
-- client's long or odd jti costs a fixed 43 characters. Rows past expires_at are deleted in batches.
create table client_assertion_jti (
    client_id  varchar(36) not null,
    jti_digest varchar(43) not null,
    expires_at timestamp with time zone not null,
    primary key (client_id, jti_digest)
);
create index client_assertion_jti_expiry on client_assertion_jti (expires_at);
