-- Issue 39 (RFC 8705 §2.1): clients that authenticate with a certificate of a CA the operator
-- trusts (identity/tlsClientCaFile) hold no secret and no keys, only the one subject their
-- certificate must carry, in one of §2.1.2's forms: tls_client_auth_subject_kind names the form
-- (its client metadata name), tls_client_auth_subject holds the value.
-- certificate_bound_tokens (RFC 8705 §3.4, tls_client_certificate_bound_access_tokens): a secret
-- or private_key_jwt client whose tokens are bound to the certificate its connection presents;
-- a certificate client's tokens always are.
alter table service_account add column tls_client_auth_subject_kind varchar(32);
alter table service_account add column tls_client_auth_subject varchar(1000);
alter table service_account add column certificate_bound_tokens boolean default false not null;
alter table service_account drop constraint service_account_credential;
alter table service_account add constraint service_account_credential check (
    (token_endpoint_auth_method = 'private_key_jwt'
        and secret_digest is null and secret_pepper_id is null and secret_created_at is null
        and previous_secret_digest is null
        and (jwks is null) <> (jwks_uri is null)
        and tls_client_auth_subject_kind is null and tls_client_auth_subject is null)
    or (token_endpoint_auth_method = 'self_signed_tls_client_auth'
        and secret_digest is null and secret_pepper_id is null and secret_created_at is null
        and previous_secret_digest is null
        and jwks is not null and jwks_uri is null
        and tls_client_auth_subject_kind is null and tls_client_auth_subject is null)
    or (token_endpoint_auth_method = 'tls_client_auth'
        and secret_digest is null and secret_pepper_id is null and secret_created_at is null
        and previous_secret_digest is null
        and jwks is null and jwks_uri is null
        and tls_client_auth_subject_kind in ('tls_client_auth_subject_dn',
            'tls_client_auth_san_dns', 'tls_client_auth_san_uri', 'tls_client_auth_san_ip',
            'tls_client_auth_san_email')
        and tls_client_auth_subject is not null)
    or (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post')
        and secret_digest is not null and secret_pepper_id is not null
        and secret_created_at is not null
        and jwks is null and jwks_uri is null
        and tls_client_auth_subject_kind is null and tls_client_auth_subject is null));
