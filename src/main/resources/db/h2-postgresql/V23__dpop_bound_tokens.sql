-- Issue 40 (RFC 9449 §5.2, dpop_bound_access_tokens): an account whose every token request must
-- carry a DPoP proof, so that all its tokens are bound to a key it holds (cnf.jkt).
alter table service_account add column dpop_bound_tokens boolean default false not null;

-- RFC 9449 §11.1: a DPoP proof's jti is taken once, on every node, until the proof is too old to
-- be taken anyway. Only token requests that carry a proof write here, after their client has
-- authenticated; jti_digest is the SHA-256 of the proof key's thumbprint and the jti.
create table dpop_proof_jti (
    client_id varchar(36) not null,
    jti_digest varchar(43) not null,
    expires_at timestamp with time zone not null,
    primary key (client_id, jti_digest)
);
create index dpop_proof_jti_expires on dpop_proof_jti (expires_at);
