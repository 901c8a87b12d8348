import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting

/// The redrive child's entry responder: while down, every attempt throws before any effect;
/// while up, each work's effect is applied once, through the store's fenced inbox.
actor RedriveDesk: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    nonisolated let store: PostgresPostStore
    nonisolated let up: Bool

    init(system: EventSystem, store: PostgresPostStore, up: Bool) {
        self.eventSystem = system
        self.store = store
        self.up = up
    }

    /// The effects table: one row per effect applied. (One statement each.)
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS redrive_effect (
            applied bigserial PRIMARY KEY,
            seq integer NOT NULL,
            event_id text NOT NULL
        )
        """
    ]

    /// Why a work failed while the desk was down.
    struct Down: Error {}

    static let strategies = Strategies<RedriveDesk> {
        $0.on(CrashSuite.Work.self) { desk, work, context in
            try await desk.apply(work, id: context.eventID)
            return .handled
        }
    }

    private nonisolated func apply(_ work: CrashSuite.Work, id: EventID) async throws {
        guard up else { throw Down() }
        let logger = store.logger
        try await store.inbox.handleOnce(id) { connection in
            try await connection.query(
                "INSERT INTO redrive_effect (seq, event_id) VALUES (\(work.seq), \(id.debugDescription))",
                logger: logger)
        }
    }
}
