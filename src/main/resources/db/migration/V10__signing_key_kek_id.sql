-- Rotation of the key-encryption key (issue 19 §2): the id of the key that sealed each private key,
-- hex of the first 8 bytes of its SHA-256 (never the key), so a node opens each row with the right
-- key, current or previous, without trial decryption, and the row's MAC is checked under the key
-- derived from that one. Null until migration 11 (Java: SQL holds no key) has found, for the rows
-- written before this one, the configured key whose MAC vouches for them; a row still null is never
-- served.
alter table signing_key add column kek_id varchar(16);
