-- MariaDB's form of db/h2-postgresql/V7 (the row that key rotations lock), in the table options
-- of every other table, so a column added later compares byte for byte too.
create table signing_key_lock (
    id int not null primary key
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
insert into signing_key_lock (id) values (1);
