-- Golden rows of SQLitePostStore's schema 3; written by make_golden.py, never again.
PRAGMA user_version = 3;
BEGIN TRANSACTION;
CREATE TABLE responder_inbox (
            event_id BLOB PRIMARY KEY,
            handled_at_ns INTEGER NOT NULL
        ) WITHOUT ROWID;
CREATE TABLE responder_post (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            id BLOB NOT NULL UNIQUE,
            ordering_key TEXT NOT NULL,
            entry TEXT NOT NULL,
            type_name TEXT NOT NULL,
            schema_version INTEGER NOT NULL,
            payload BLOB NOT NULL,
            idempotency_key TEXT UNIQUE,
            deadline_ns INTEGER,
            trace_context TEXT,
            stored_at_ns INTEGER NOT NULL,
            finished_at_ns INTEGER,
            outcome_kind TEXT,
            outcome_description TEXT
        , failed_attempts TEXT, retry_at_ns INTEGER, dead_lettered INTEGER NOT NULL DEFAULT 0);
INSERT INTO "responder_post" VALUES(1,X'00000000000000010000000000000001','orders','desk','reservation',1,X'7B226F72646572223A226F2D31227D',NULL,NULL,NULL,1000,NULL,NULL,NULL,NULL,NULL,0);
INSERT INTO "responder_post" VALUES(2,X'00000000000000010000000000000002','orders','desk','reservation',2,X'7B226964223A226F2D32222C227175616E74697479223A327D',NULL,NULL,NULL,2000,NULL,NULL,NULL,NULL,NULL,0);
INSERT INTO "responder_post" VALUES(3,X'00000000000000010000000000000003','orders','desk','reservation',1,X'7B226F72646572223A226F2D33227D',NULL,NULL,NULL,3000,3500,'handled','handled',NULL,NULL,0);
INSERT INTO "responder_post" VALUES(4,X'00000000000000010000000000000004','orders','desk','reservation',1,X'7B226F72646572223A226F2D34227D',NULL,NULL,NULL,4000,NULL,NULL,NULL,'[{"number":1,"kind":"failed","description":"out of stock","endedAt":4000}]',5000,0);
INSERT INTO "responder_post" VALUES(5,X'00000000000000010000000000000005','orders','desk','reservation',2,X'7B226964223A226F2D35222C227175616E74697479223A357D',NULL,NULL,NULL,5000,5500,'failed','no desk',NULL,NULL,1);
CREATE INDEX responder_post_unfinished ON responder_post(sequence) WHERE finished_at_ns IS NULL;
CREATE INDEX responder_post_finished ON responder_post(finished_at_ns) WHERE finished_at_ns IS NOT NULL;
CREATE INDEX responder_inbox_handled ON responder_inbox(handled_at_ns);
CREATE INDEX responder_post_dead_letters ON responder_post(sequence) WHERE dead_lettered = 1;
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('responder_post',5);
COMMIT;
