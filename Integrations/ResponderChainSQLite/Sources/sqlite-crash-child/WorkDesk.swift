import GRDB
import ResponderChain
import ResponderChainSQLite

/// The child's entry responder: applies each ``Work``'s effect once, through the store's inbox.
actor WorkDesk: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    let store: SQLitePostStore
    let trigger: CrashTrigger
    let seed: UInt64

    init(system: EventSystem, store: SQLitePostStore, trigger: CrashTrigger, seed: UInt64) {
        self.eventSystem = system
        self.store = store
        self.trigger = trigger
        self.seed = seed
    }

    static let strategies = Strategies<WorkDesk> {
        $0.on(Work.self) { desk, work, context in
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

    private func apply(_ work: Work, id: EventID) async throws {
        trigger.passHandler(of: id)
        // Handlers take a varying, seeded while (yields, no clock): with the keys' order broken,
        // a later post of a key would overtake an earlier one.
        for _ in 0..<(seed &+ UInt64(work.seq) &* 0x9E37_79B9) % 256 { await Task.yield() }
        let ran = try await store.inbox.handleOnce(id) { db in
            try db.execute(
                sql: "INSERT INTO effect (seq, key, event_id) VALUES (?, ?, ?)",
                arguments: [work.seq, work.key.name, id.description])
        }
        // A redelivery of a post whose effect an earlier run applied: the inbox kept it once.
        if !ran { writeLine("skipped \(work.seq)", to: 1) }
    }
}
