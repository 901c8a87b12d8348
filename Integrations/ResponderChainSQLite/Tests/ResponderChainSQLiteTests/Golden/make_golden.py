"""Writes the golden stored rows of GoldenRowTests: one SQL dump per shipped version of the
store's schema (store-schema-<n>.sql), each a file as that version of SQLitePostStore left it,
holding posts of the event `reservation` in its schema versions 1 and 2.

Run from this folder (Python's own sqlite3, nothing to install):

    python3 make_golden.py

The migrations are read from Sources/ResponderChainSQLite/PostSchema.swift, where a migration that
shipped is never edited: the first n of them are schema n. A dump that exists is never written
again (a shipped version's rows stay as they shipped); a new schema version adds its file.
"""

import os
import re
import sqlite3

here = os.path.dirname(os.path.abspath(__file__))
schema_source = os.path.join(here, "..", "..", "..", "Sources", "ResponderChainSQLite", "PostSchema.swift")
with open(schema_source, encoding="utf-8") as f:
    migrations = [m.strip() for m in re.findall(r'"""\n(.*?)"""', f.read(), re.S)]


def event_id(sequence):
    return (1).to_bytes(8, "big") + sequence.to_bytes(8, "big")


def rows(version):
    # (sequence, schema version, payload, finished, extra columns)
    base = [
        (1, 1, b'{"order":"o-1"}', None, {}),
        (2, 2, b'{"id":"o-2","quantity":2}', None, {}),
        (3, 1, b'{"order":"o-3"}', ("handled", "handled"), {}),
    ]
    if version >= 2:
        base.append((4, 1, b'{"order":"o-4"}', None, {
            "failed_attempts": '[{"number":1,"kind":"failed","description":"out of stock","endedAt":4000}]',
            "retry_at_ns": 5000}))
    if version >= 3:
        base.append((5, 2, b'{"id":"o-5","quantity":5}', ("failed", "no desk"), {"dead_lettered": 1}))
    return base


for version in range(1, len(migrations) + 1):
    path = os.path.join(here, f"store-schema-{version}.sql")
    if os.path.exists(path):
        continue
    db = sqlite3.connect(":memory:")
    for migration in migrations[:version]:
        db.executescript(migration)
    db.execute(f"PRAGMA user_version = {version}")
    for sequence, schema, payload, finished, extra in rows(version):
        columns = {
            "sequence": sequence, "id": event_id(sequence), "ordering_key": "orders", "entry": "desk",
            "type_name": "reservation", "schema_version": schema, "payload": payload,
            "stored_at_ns": sequence * 1000,
        }
        if finished:
            columns.update(finished_at_ns=sequence * 1000 + 500, outcome_kind=finished[0],
                           outcome_description=finished[1])
        columns.update(extra)
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        db.execute(f"INSERT INTO responder_post ({names}) VALUES ({marks})", list(columns.values()))
    db.commit()
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"-- Golden rows of SQLitePostStore's schema {version}; written by make_golden.py, never again.\n")
        out.write(f"PRAGMA user_version = {version};\n")
        for line in db.iterdump():
            out.write(line + "\n")
