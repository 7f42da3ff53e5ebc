-- Every digest names its pepper (issue 19 §3), filled by migration 13 for the rows written before:
-- the current digest always, the previous digest exactly when there is one.
alter table service_account alter column secret_pepper_id set not null;
alter table service_account add constraint service_account_previous_pepper
    check ((previous_secret_digest is null) = (previous_secret_pepper_id is null));
