-- One row that operators' key rotations lock (SELECT ... FOR UPDATE) before they read the keys, so
-- two of them, on one node or two, never decide from the same rows (issue 26): the second waits,
-- then sees the first one's key signing and keeps it listed.
create table signing_key_lock (
    id int not null primary key
);
insert into signing_key_lock (id) values (1);
