-- Issue 24: where a signing key's private half lives. 'database': sealed in private_key and
-- private_key_nonce, as before. 'pkcs11': made inside the configured PKCS#11 token, found there by
-- its kid (CKA_ID); the row keeps the public key, the schedule and the MAC, and no private bytes.
alter table signing_key add column private_key_home varchar(16) default 'database' not null;
alter table signing_key alter column private_key drop not null;
alter table signing_key alter column private_key_nonce drop not null;
alter table signing_key add constraint signing_key_private_key_home check (
    (private_key_home = 'database' and private_key is not null and private_key_nonce is not null)
    or (private_key_home = 'pkcs11' and private_key is null and private_key_nonce is null));
