public import ResponderChain

/// Counts the occurrences of a child run's crash point and crashes at the chosen one
/// (``CrashInjection/crash(at:)``).
///
/// Shared by a ``CrashingPostStore`` (which passes the store's points on the store writer's
/// task) and the child's handler (on its responder), so either side may pass a point from any
/// task.
///
/// ```swift
/// let trigger = CrashTrigger(point: run.point, occurrence: run.occurrence)
/// let store = CrashingPostStore(wrapping: sqlite, trigger: trigger)
/// // In the handler, before the inbox transaction:
/// trigger.passHandler(of: context.eventID)
/// ```
public final class CrashTrigger: Sendable {
    /// The point this run crashes at; `nil` for a clean run.
    public let point: CrashPoint?
    /// At which occurrence of ``point`` it crashes (1 for the first).
    public let occurrence: Int

    private struct State {
        var passed = 0
        var recovered = Set<EventID>()
    }

    private let state = Locked(State())

    /// A trigger that crashes at occurrence `occurrence` of `point`, or never (`point` `nil`).
    public init(point: CrashPoint?, occurrence: Int) {
        self.point = point
        self.occurrence = occurrence
    }

    /// Counts `count` occurrences of `point` (the posts of a batch the store is given), and
    /// crashes if the chosen one is among them: a store point crashes at the batch that holds
    /// the run's n-th post, so that the kill lands whenever the run has that many posts,
    /// however the posts were batched.
    public func pass(_ point: CrashPoint, count: Int = 1) {
        guard point == self.point, count > 0 else { return }
        let after = state.withLock { state in
            state.passed += count
            return state.passed
        }
        if after >= occurrence && after - count < occurrence { CrashInjection.crash(at: point) }
    }

    /// Notes the posts the store handed back as unfinished: an earlier run left them, and
    /// handling one is a redelivery.
    public func noteRecovered(_ ids: some Sequence<EventID>) {
        let ids = Set(ids)
        state.withLock { $0.recovered.formUnion(ids) }
    }

    /// Called by the handler for every post it handles, before its effect: counts
    /// ``CrashPoint/insideHandler``, and ``CrashPoint/duringRedelivery`` for a recovered post. A
    /// run that recovered fewer posts than ``occurrence`` crashes at its last redelivery, so
    /// that the kill lands whenever there was anything to redeliver.
    public func passHandler(of id: EventID) {
        pass(.insideHandler)
        guard point == .duringRedelivery else { return }
        let crashes = state.withLock { state in
            guard state.recovered.contains(id) else { return false }
            state.passed += 1
            return state.passed == min(occurrence, state.recovered.count)
        }
        if crashes { CrashInjection.crash(at: .duringRedelivery) }
    }

    /// How many occurrences of ``point`` passed.
    public var passes: Int { state.withLock { $0.passed } }

    /// Whether the run is still to crash (its point was not reached yet).
    public var isArmed: Bool {
        guard point != nil else { return false }
        return passes < occurrence
    }
}
