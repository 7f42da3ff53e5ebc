-- MariaDB's form of db/h2-postgresql/V8 (the pepper's check value), compared byte for byte.
create table secret_pepper_check (
    id int not null primary key,
    check_value varchar(64) not null
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
