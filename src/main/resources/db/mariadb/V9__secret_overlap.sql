-- MariaDB's form of db/h2-postgresql/V9 (secret rotation with a bounded overlap). MariaDB commits
-- each DDL statement by itself, so a failure part way leaves the statements before it applied.
alter table service_account add column secret_created_at datetime(6);
update service_account set secret_created_at = created_at;
alter table service_account modify column secret_created_at datetime(6) not null;
alter table service_account add column previous_secret_digest varchar(64);
alter table service_account add column previous_secret_expires_at datetime(6);
alter table service_account add constraint service_account_previous_secret
    check ((previous_secret_digest is null) = (previous_secret_expires_at is null));
create index service_account_secret_created on service_account (secret_created_at);
