-- Signing keys (DESIGN decisions 4 and 5). Every node computes the current key and the published
-- list from these timestamps and its clock, so nodes agree without talking.
--   public_key         X.509 SubjectPublicKeyInfo (DER), base64
--   private_key        PKCS#8 (DER) encrypted with AES-256-GCM under identity/keyEncryptionKey,
--                      the kid as associated data; base64 of ciphertext and tag
--   private_key_nonce  the 12-byte GCM nonce of that encryption, base64
--   schedule_slot      "first" or "after:<kid of the key it succeeds>": the unique constraint lets
--                      exactly one node create the next key; a revoked or retired key gives it up
--   expires_at         when the key leaves the list; null until its successor is scheduled
create table signing_key (
    kid               varchar(64)   not null primary key,
    public_key        varchar(2000) not null,
    private_key       varchar(8000) not null,
    private_key_nonce varchar(24)   not null,
    schedule_slot     varchar(80),
    published_at      timestamp with time zone not null,
    active_from       timestamp with time zone not null,
    expires_at        timestamp with time zone,
    revoked_at        timestamp with time zone,
    created_at        timestamp with time zone not null,
    constraint signing_key_schedule_slot unique (schedule_slot),
    constraint signing_key_published_first check (published_at <= active_from)
);
