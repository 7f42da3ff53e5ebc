-- MariaDB's form of db/h2-postgresql/V19 (where a signing key's private half lives).
alter table signing_key add column private_key_home varchar(16) default 'database' not null;
alter table signing_key modify column private_key
    varchar(8000) character set ascii collate ascii_nopad_bin;
alter table signing_key modify column private_key_nonce
    varchar(24) character set ascii collate ascii_nopad_bin;
alter table signing_key add constraint signing_key_private_key_home check (
    (private_key_home = 'database' and private_key is not null and private_key_nonce is not null)
    or (private_key_home = 'pkcs11' and private_key is null and private_key_nonce is null));
