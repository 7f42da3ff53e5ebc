-- Issue 39 (RFC 8705 §2.2): clients that authenticate with a self-signed TLS client certificate
-- hold no secret, only a JWK set whose keys carry their certificates (x5c), kept in jwks; never a
-- jwks_uri.
alter table service_account drop constraint service_account_credential;
alter table service_account add constraint service_account_credential check (
    (token_endpoint_auth_method = 'private_key_jwt'
        and secret_digest is null and secret_pepper_id is null and secret_created_at is null
        and previous_secret_digest is null
        and (jwks is null) <> (jwks_uri is null))
    or (token_endpoint_auth_method = 'self_signed_tls_client_auth'
        and secret_digest is null and secret_pepper_id is null and secret_created_at is null
        and previous_secret_digest is null
        and jwks is not null and jwks_uri is null)
    or (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post')
        and secret_digest is not null and secret_pepper_id is not null
        and secret_created_at is not null
        and jwks is null and jwks_uri is null));
