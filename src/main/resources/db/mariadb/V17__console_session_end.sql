-- MariaDB's form of db/h2-postgresql/V17 (console sessions ended before their time).
create table console_session_end (
    session_id varchar(43) primary key,
    expires_at datetime(6) not null
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;
