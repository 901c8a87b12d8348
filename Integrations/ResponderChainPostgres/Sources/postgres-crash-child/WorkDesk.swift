import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting

/// The child's entry responder: applies each work's effect once, through the store's fenced
/// inbox (the effect row and the inbox entry in one transaction).
actor WorkDesk: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    nonisolated let store: PostgresPostStore
    nonisolated let trigger: CrashTrigger
    nonisolated let run: CrashSuite.Run

    init(system: EventSystem, store: PostgresPostStore, trigger: CrashTrigger, run: CrashSuite.Run) {
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

    /// The effects table, and the triggers that link each effect to its post: the inbox's row
    /// for an event is written in the transaction that writes its effect, just before it, so
    /// the first trigger keeps the inbox's event identifier (the stored post's `id_epoch` and
    /// `id_sequence`) in a setting local to the transaction, and the second copies it into the
    /// effect. One statement each (the extended protocol runs one per query); each may run again.
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS effect (
            applied bigserial PRIMARY KEY,
            seq integer NOT NULL,
            key text NOT NULL,
            event_id text NOT NULL,
            post_epoch bigint,
            post_sequence bigint
        )
        """,
        """
        CREATE OR REPLACE FUNCTION effect_inbox_entry() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM set_config('crash_suite.inbox_entry', NEW.id_epoch || ' ' || NEW.id_sequence, true);
            RETURN NEW;
        END $$
        """,
        """
        CREATE OR REPLACE TRIGGER effect_inbox_entry AFTER INSERT ON responderchain_inbox
            FOR EACH ROW EXECUTE FUNCTION effect_inbox_entry()
        """,
        """
        CREATE OR REPLACE FUNCTION effect_post() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE entry text := current_setting('crash_suite.inbox_entry', true);
        BEGIN
            IF entry IS NOT NULL AND entry <> '' THEN
                NEW.post_epoch := split_part(entry, ' ', 1)::bigint;
                NEW.post_sequence := split_part(entry, ' ', 2)::bigint;
            END IF;
            RETURN NEW;
        END $$
        """,
        """
        CREATE OR REPLACE TRIGGER effect_post BEFORE INSERT ON effect
            FOR EACH ROW EXECUTE FUNCTION effect_post()
        """,
    ]

    private nonisolated func apply(_ work: CrashSuite.Work, id: EventID) async throws {
        trigger.passHandler(of: id)
        await run.pace(work)
        let logger = store.logger
        let ran: Bool
        do {
            ran = try await store.inbox.handleOnce(id) { connection in
                try await connection.query(
                    """
                    INSERT INTO effect (seq, key, event_id)
                    VALUES (\(work.seq), \(work.key.name), \(id.debugDescription))
                    """, logger: logger)
            }
        } catch {
            // The post ends failed; it is delivered again if its finish is refused.
            CrashInjection.writeLine("failed \(work.seq) \(id.debugDescription): \(error)", to: 2)
            throw error
        }
        // A redelivery of a post whose effect an earlier run applied: the inbox kept it once.
        if !ran { CrashInjection.writeLine("skipped \(work.seq)", to: 1) }
    }
}
