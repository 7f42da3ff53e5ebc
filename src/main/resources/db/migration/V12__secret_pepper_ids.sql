-- Rotation of the secret pepper (issue 19 §3): the short id of the pepper each digest was made
-- under, so a token request computes its HMAC under that pepper, still one HMAC, and a digest
-- under a previous pepper can be moved to the current one. Migration 13 (Java, since it needs the
-- peppers) fills them for the rows written before; migration 14 then requires them.
alter table service_account add column secret_pepper_id varchar(16);
alter table service_account add column previous_secret_pepper_id varchar(16);
