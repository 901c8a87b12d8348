import Synchronization

extension EventSystem {
    /// The process-wide event system: the one passed to ``bootstrap(_:)``, or a system with no
    /// tracer, no dead-letter sink and the default ``PostingLimit`` if the first event was sent
    /// before any bootstrap.
    ///
    /// The first read fixes it for the life of the process: every event is accounted for by the
    /// same system, from the first to the last.
    public static var `default`: EventSystem { processWide.current }

    /// Makes `system` the process-wide ``default``. Call it once, at start-up, before any event
    /// is sent, like `LoggingSystem.bootstrap` in swift-log:
    ///
    /// ```swift
    /// @main struct Server {
    ///     static func main() async throws {
    ///         try EventSystem.bootstrap(EventSystem(tracer: LoggingTracer(logger: logger)))
    ///         …
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: ``BootstrapError/alreadyBootstrapped`` when called a second time, and
    ///   ``BootstrapError/defaultAlreadyInUse`` when an event was sent (or ``default`` read)
    ///   before the call: the events sent until then used a system without your configuration,
    ///   and replacing it now would split the process's events (and its post queues) between two
    ///   systems. The default in use is kept in both cases.
    public static func bootstrap(_ system: EventSystem) throws(BootstrapError) {
        try processWide.bootstrap(system)
    }

    /// Why ``bootstrap(_:)`` refused a system.
    public enum BootstrapError: Error, Hashable, Sendable, CustomStringConvertible {
        /// ``bootstrap(_:)`` was already called in this process.
        case alreadyBootstrapped
        /// ``default`` was already in use (an event was sent through it) before the call.
        case defaultAlreadyInUse

        /// What went wrong, and what to do.
        public var description: String {
            switch self {
            case .alreadyBootstrapped:
                return "EventSystem.bootstrap was already called; call it once, at start-up"
            case .defaultAlreadyInUse:
                return
                    "EventSystem.default was used before EventSystem.bootstrap; bootstrap before sending the first event"
            }
        }
    }

    /// The process's one slot for the default.
    private static let processWide = DefaultEventSystem()
}

/// The slot behind ``EventSystem/default``: empty until bootstrapped or first read, then fixed.
///
/// One atomic load per read once set (every send from a responder that names no system reads
/// it). Tests of the bootstrap rules make their own slot: the process-wide one can be set once.
package final class DefaultEventSystem: Sendable {
    /// The system in the slot and how it got there.
    private final class Entry: Sendable {
        let system: EventSystem
        let wasBootstrapped: Bool

        init(system: EventSystem, wasBootstrapped: Bool) {
            self.system = system
            self.wasBootstrapped = wasBootstrapped
        }
    }

    private let slot = AtomicLazyReference<Entry>()

    /// An empty slot.
    package init() {}

    /// The system in the slot; the first read of an empty slot fills it with a plain system.
    package var current: EventSystem {
        if let entry = slot.load() { return entry.system }
        return slot.storeIfNil(Entry(system: EventSystem(), wasBootstrapped: false)).system
    }

    /// Fills the slot with `system`, unless it is already filled.
    package func bootstrap(_ system: EventSystem) throws(EventSystem.BootstrapError) {
        let entry = Entry(system: system, wasBootstrapped: true)
        let stored = slot.storeIfNil(entry)
        guard stored !== entry else { return }
        throw stored.wasBootstrapped ? .alreadyBootstrapped : .defaultAlreadyInUse
    }
}
