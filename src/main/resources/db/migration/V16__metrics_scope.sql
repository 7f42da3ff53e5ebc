-- Issue 20: the scope that reads /metrics. Like the other identity: scopes it names no channels,
-- and only identity:admin may grant it.
insert into scope_catalog (name, description, subscribe_channels, publish_channels, replay_channels) values
    ('identity:metrics', 'Read this service''s metrics at /metrics (Prometheus text format).', '', '', '');
