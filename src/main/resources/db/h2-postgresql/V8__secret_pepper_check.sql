-- The pepper's check value (README "Choices"): the digest, under identity/secretPepper, of a fixed
-- label, as a client secret's digest would be. Written at the first start on this schema (a new
-- database, or an upgraded one), compared at every later start, so a start with another pepper
-- fails naming the setting instead of refusing every client secret. One row; a pepper rotation
-- rewrites it.
create table secret_pepper_check (
    id int not null primary key,
    check_value varchar(64) not null
);
