import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainTesting

/// The redrive child's entry responder: while down, every attempt throws before any effect;
/// while up, each work's effect is applied once, through the store's inbox.
actor RedriveDesk: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    let store: SQLitePostStore
    let up: Bool

    init(system: EventSystem, store: SQLitePostStore, up: Bool) {
        self.eventSystem = system
        self.store = store
        self.up = up
    }

    /// The effects table: one row per effect applied, with the post it was applied for.
    static let schema = """
        CREATE TABLE IF NOT EXISTS redrive_effect (
            applied INTEGER PRIMARY KEY AUTOINCREMENT,
            seq INTEGER NOT NULL,
            event_id TEXT NOT NULL
        );
        """

    /// Why a work failed while the desk was down.
    struct Down: Error {}

    static let strategies = Strategies<RedriveDesk> {
        $0.on(CrashSuite.Work.self) { desk, work, context in
            try await desk.apply(work, id: context.eventID)
            return .handled
        }
    }

    private func apply(_ work: CrashSuite.Work, id: EventID) async throws {
        guard up else { throw Down() }
        try await store.inbox.handleOnce(id) { db in
            try db.execute(
                sql: "INSERT INTO redrive_effect (seq, event_id) VALUES (?, ?)",
                arguments: [work.seq, id.debugDescription])
        }
    }
}
