-- MariaDB's form of db/h2-postgresql/V3 (the scope catalog): the table in utf8mb4_nopad_bin, the same rows.
create table scope_catalog (
    name               varchar(100)  not null primary key,
    description        varchar(500)  not null,
    subscribe_channels varchar(4000) not null,
    publish_channels   varchar(4000) not null,
    replay_channels    varchar(4000) not null
) engine = InnoDB default character set utf8mb4 collate utf8mb4_nopad_bin;

insert into scope_catalog (name, description, subscribe_channels, publish_channels, replay_channels) values
    ('marketing:*', 'Full access to the marketing-content API.', 'marketing.*', 'marketing.*', 'marketing.*'),
    ('marketing:content.view', 'View content items.', 'marketing.content.*', '', 'marketing.content.*'),
    ('marketing:content.create', 'Create content items.', '', 'marketing.content.*', ''),
    ('marketing:circulars.view', 'View weekly circulars.', 'marketing.circulars.*', '', 'marketing.circulars.*'),
    ('marketing:offers.view', 'View promotional offers.', 'marketing.offers.*', '', 'marketing.offers.*'),
    ('catalog:*', 'Full access to the catalog API.', 'catalog.*', 'catalog.*', 'catalog.*'),
    ('catalog:products.view', 'View products.', 'catalog.products.*', '', 'catalog.products.*'),
    ('catalog:categories.view', 'View the category hierarchy.', 'catalog.categories.*', '', 'catalog.categories.*'),
    ('kitchen:*', 'Full access to the ordering API.', 'kitchen.*', 'kitchen.*', 'kitchen.*'),
    ('kitchen:menus.read', 'Check item availability.', 'kitchen.menus.*', '', 'kitchen.menus.*'),
    ('kitchen:orders.calculate', 'Calculate order totals.', '', 'kitchen.orders.*', ''),
    ('kitchen:orders.create', 'Create guest orders.', '', 'kitchen.orders.*', ''),
    ('kitchen:payments.read', 'Check payment status.', 'kitchen.payments.*', '', 'kitchen.payments.*'),
    ('kitchen:payments.create', 'Create payment requests.', '', 'kitchen.payments.*', ''),
    ('kitchen:kiosks.bootstrap', 'Initialize kiosks.', '', 'kitchen.kiosks.*', ''),
    ('kitchen:kiosks.heartbeat', 'Send kiosk heartbeats.', '', 'kitchen.kiosks.*', '');

insert into scope_catalog (name, description, subscribe_channels, publish_channels, replay_channels) values
    ('identity:admin', 'Administer everything, in every organization.', '', '', ''),
    ('identity:accounts.manage', 'Manage the service accounts of the organizations in the token''s accessible_orgs.', '', '', ''),
    ('identity:keys.manage', 'Rotate and revoke signing keys.', '', '', '');
