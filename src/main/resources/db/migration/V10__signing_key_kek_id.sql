-- Rotation of the key-encryption key (issue 19 §2): the id of the key that sealed each private key,
-- its id (config/KeyId: 16 hex digits of a labelled HMAC under the key, never the key), so a node opens each row with the right
-- key, current or previous, without trial decryption, and the row's MAC is checked under the key
-- derived from that one. Null until migration 11 (Java: SQL holds no key) has found, for the rows
-- written before this one, the configured key whose MAC vouches for them; a row still null is never
-- served.
alter table signing_key add column kek_id varchar(16);
