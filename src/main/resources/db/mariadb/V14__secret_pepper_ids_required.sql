-- MariaDB's form of db/h2-postgresql/V14: every digest names its pepper.
alter table service_account modify column secret_pepper_id varchar(16) not null;
alter table service_account add constraint service_account_previous_pepper
    check ((previous_secret_digest is null) = (previous_secret_pepper_id is null));
