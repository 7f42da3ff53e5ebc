-- Secret rotation with a bounded overlap (issue 19): when the current secret was made, and the
-- secret it replaced with the moment it stops authenticating. An account holds at most these two.
-- Rows written before keep working with no manual step: their secret dates from their creation and
-- they have no previous secret.
alter table service_account add column secret_created_at timestamp with time zone;
update service_account set secret_created_at = created_at;
alter table service_account alter column secret_created_at set not null;
alter table service_account add column previous_secret_digest varchar(64);
alter table service_account add column previous_secret_expires_at timestamp with time zone;
alter table service_account add constraint service_account_previous_secret
    check ((previous_secret_digest is null) = (previous_secret_expires_at is null));
create index service_account_secret_created on service_account (secret_created_at);
