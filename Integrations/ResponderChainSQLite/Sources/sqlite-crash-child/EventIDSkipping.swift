import Foundation
import GRDB
import ResponderChain
import ResponderChainSQLite

/// Moves this process's event identifiers past those the file holds.
///
/// Needed while `EventID` is a per-process counter (issue 39 makes it unique across processes
/// with an epoch part): without it, this run's first posts would reuse the identifiers of the
/// posts earlier runs stored. Reads the sequence half of the 16-byte `id` column and draws that
/// many identifiers; once identifiers carry an epoch, this only draws unused ones.
func skipStoredIdentifiers(in store: SQLitePostStore) async throws {
    let highest = try await store.read { db in
        try Data.fetchAll(db, sql: "SELECT id FROM responder_post").map { bytes in
            bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }.max() ?? 0
    }
    for _ in 0..<highest { _ = EventID() }
}
