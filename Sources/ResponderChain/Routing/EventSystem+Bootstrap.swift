import Synchronization

extension EventSystem {
    /// The process-wide event system: the one passed to ``bootstrap(_:)``, or a system with no
    /// tracer, no dead-letter sink and the default ``EventSystem/PostingLimit`` if the first event was sent
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
/// Once set, a read is one atomic load. Tests of the bootstrap rules make their own slot: the
/// process-wide one can be set once.
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

    /// The address of the entry once the slot is filled, 0 before. The entry is retained by the
    /// slot (released in `deinit`) and never replaced, so a loaded address stays valid. (An
    /// address rather than `AtomicLazyReference` or a `Mutex`: see "Design notes measured" in
    /// Benchmarks.md.)
    private let slot = Atomic<UInt>(0)

    /// An empty slot.
    package init() {}

    /// The system in the slot; the first read of an empty slot fills it with a plain system.
    package var current: EventSystem {
        let address = slot.load(ordering: .acquiring)
        if address != 0 { return Self.entry(at: address).system }
        return storeIfEmpty(Entry(system: EventSystem(), wasBootstrapped: false)).system
    }

    deinit {
        let address = slot.load(ordering: .acquiring)
        if address != 0 { Unmanaged.passUnretained(Self.entry(at: address)).release() }
    }

    private static func entry(at address: UInt) -> Entry {
        Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
    }

    /// Stores `entry` if the slot is empty; returns the entry the slot holds afterwards.
    private func storeIfEmpty(_ entry: Entry) -> Entry {
        let address = UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque())
        let (stored, original) = slot.compareExchange(
            expected: 0, desired: address, ordering: .acquiringAndReleasing)
        if stored { return entry }
        Unmanaged.passUnretained(entry).release()
        return Self.entry(at: original)
    }

    /// Fills the slot with `system`, unless it is already filled.
    package func bootstrap(_ system: EventSystem) throws(EventSystem.BootstrapError) {
        let entry = Entry(system: system, wasBootstrapped: true)
        let stored = storeIfEmpty(entry)
        guard stored !== entry else { return }
        throw stored.wasBootstrapped ? .alreadyBootstrapped : .defaultAlreadyInUse
    }
}
