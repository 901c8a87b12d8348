-- Golden rows of PostgresPostStore's schema 1: what a database of that version holds (the
-- schema itself is its first 1 migrations, which never change). Never edited once shipped.
INSERT INTO responderchain_keys (key) VALUES ('orders');
INSERT INTO responderchain_posts (seq, id_epoch, id_sequence, ordering_key, entry, type_name, schema_version, payload, stored_at) VALUES (1, 1, 1, 'orders', 'desk', 'reservation', 1, convert_to('{"order":"o-1"}', 'UTF8'), '2026-01-01 00:00:01+00');
INSERT INTO responderchain_posts (seq, id_epoch, id_sequence, ordering_key, entry, type_name, schema_version, payload, stored_at) VALUES (2, 1, 2, 'orders', 'desk', 'reservation', 2, convert_to('{"id":"o-2","quantity":2}', 'UTF8'), '2026-01-01 00:00:02+00');
INSERT INTO responderchain_posts (seq, id_epoch, id_sequence, ordering_key, entry, type_name, schema_version, payload, stored_at, finished_at, outcome_kind, outcome_description) VALUES (3, 1, 3, 'orders', 'desk', 'reservation', 1, convert_to('{"order":"o-3"}', 'UTF8'), '2026-01-01 00:00:03+00', '2026-01-01 00:00:03+00', 'handled', 'handled');
SELECT setval('responderchain_posts_seq_seq', 5);
