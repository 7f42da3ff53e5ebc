-- MariaDB's form of db/h2-postgresql/V18 (private_key_jwt clients and their assertions' jti). The
-- JWK set is MEDIUMTEXT with its limit as a CHECK: 20,000 characters of utf8mb4 pass TEXT's 65,535
-- bytes.
alter table service_account add column token_endpoint_auth_method varchar(32)
    default 'client_secret_basic' not null;
alter table service_account add column jwks mediumtext;
alter table service_account add column jwks_uri varchar(2000);
alter table service_account modify column secret_digest varchar(64);
alter table service_account modify column secret_pepper_id varchar(16);
alter table service_account modify column secret_created_at datetime(6);
alter table service_account add constraint service_account_jwks_length
    check (char_length(jwks) <= 20000);
alter table service_account add constraint service_account_credential check (
    (token_endpoint_auth_method = 'private_key_jwt'
        and secret_digest is null and secret_pepper_id is null and secret_created_at is null
        and previous_secret_digest is null
        and (jwks is null) <> (jwks_uri is null))
    or (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post')
        and secret_digest is not null and secret_pepper_id is not null
        and secret_created_at is not null
        and jwks is null and jwks_uri is null));

create table client_assertion_jti (
    client_id  varchar(36) not null,
    jti_digest varchar(43) not null,
    expires_at datetime(6) not null,
    primary key (client_id, jti_digest)
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
create index client_assertion_jti_expiry on client_assertion_jti (expires_at);
