-- MariaDB's form of db/h2-postgresql/V23 (DPoP-bound accounts and the proofs' jti).
alter table service_account add column dpop_bound_tokens boolean default false not null;

create table dpop_proof_jti (
    client_id varchar(36) not null,
    jti_digest varchar(43) not null,
    expires_at datetime(6) not null,
    primary key (client_id, jti_digest)
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
create index dpop_proof_jti_expires on dpop_proof_jti (expires_at);
