/// Point events kept in order under a lock: the storage of `RecordingTracer` (in
/// `ResponderChainTesting`).
///
/// It lives here, beside ``Locked``, so that its critical sections are specialized for
/// `[TraceEvent]` in this module: `Locked`'s generic `withLock`, called from another module, runs
/// unspecialized.
package struct TraceEventLog: ~Copyable, Sendable {
    private let storage = Locked<[TraceEvent]>([])

    package init() {}

    /// Appends `event`.
    package borrowing func append(_ event: TraceEvent) {
        storage.withLock { $0.append(event) }
    }

    /// Every event so far, in order.
    package borrowing func events() -> [TraceEvent] {
        storage.withLock { $0 }
    }

    /// Forgets every event, keeping the memory for the events to come.
    package borrowing func removeAll() {
        storage.withLock { $0.removeAll(keepingCapacity: true) }
    }
}
