-- The integrity of each signing-key row (README "Choices"): HMAC-SHA-256, base64, of the row's kid,
-- key material and times under a key derived from identity/keyEncryptionKey, so a row written or
-- changed by anyone without that key is refused. Null until migration 6 (Java: SQL cannot compute
-- it) has vouched for the rows written before this one; a row still null is never served.
alter table signing_key add column row_mac varchar(64);
