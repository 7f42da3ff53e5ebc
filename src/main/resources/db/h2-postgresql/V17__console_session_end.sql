-- Issue 21: console sessions live in a sealed cookie, so that any node serves them. A logout ends
-- one before its time by its id, here, until the time it would have ended anyway; every node reads
-- this table (one primary-key lookup) before it believes a session cookie, so a copy of the cookie
-- taken before the logout is dead too. Rows past expires_at are deleted at the next logout.
create table console_session_end (
    session_id varchar(43) primary key,
    expires_at timestamp with time zone not null
);
