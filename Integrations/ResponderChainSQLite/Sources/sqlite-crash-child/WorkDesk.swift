import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainTesting

/// The child's entry responder: applies each work's effect once, through the store's inbox.
actor WorkDesk: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    let store: SQLitePostStore
    let trigger: CrashTrigger
    let run: CrashSuite.Run

    init(system: EventSystem, store: SQLitePostStore, trigger: CrashTrigger, run: CrashSuite.Run) {
        self.eventSystem = system
        self.store = store
        self.trigger = trigger
        self.run = run
    }

    static let strategies = Strategies<WorkDesk> {
        $0.on(CrashSuite.Work.self) { desk, work, context in
            try await desk.apply(work, id: context.eventID)
            return .handled
        }
    }

    /// The effects table, and the trigger that links each effect to its post: the inbox's row
    /// for an event is written in the transaction that wrote its effect, right after it, so the
    /// trigger copies the inbox's event identifier (the stored post's `id` column, whatever its
    /// format) into that effect.
    static let schema = """
        CREATE TABLE IF NOT EXISTS effect (
            applied INTEGER PRIMARY KEY AUTOINCREMENT,
            seq INTEGER NOT NULL,
            key TEXT NOT NULL,
            event_id TEXT NOT NULL,
            post_id BLOB
        );
        CREATE TRIGGER IF NOT EXISTS effect_post AFTER INSERT ON responder_inbox BEGIN
            UPDATE effect SET post_id = NEW.event_id WHERE post_id IS NULL;
        END;
        """

    private func apply(_ work: CrashSuite.Work, id: EventID) async throws {
        trigger.passHandler(of: id)
        await run.pace(work)
        let ran = try await store.inbox.handleOnce(id) { db in
            try db.execute(
                sql: "INSERT INTO effect (seq, key, event_id) VALUES (?, ?, ?)",
                arguments: [work.seq, work.key.name, id.debugDescription])
        }
        // A redelivery of a post whose effect an earlier run applied: the inbox kept it once.
        if !ran { CrashInjection.writeLine("skipped \(work.seq)", to: 1) }
    }
}
