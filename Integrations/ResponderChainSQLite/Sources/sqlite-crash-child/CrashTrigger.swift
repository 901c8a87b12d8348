import ResponderChain
import Synchronization

/// Counts the occurrences of this run's crash point and crashes at the chosen one.
///
/// Shared by the store wrapper (which runs on the store writer's task) and the handler (on the
/// responder): the counter is an `Atomic` and the set of recovered posts a `Mutex`, so that
/// either side may pass a point from any task.
final class CrashTrigger: Sendable {
    /// The point this run crashes at; `nil` for a clean run.
    let point: CrashPoint?
    /// At which occurrence of ``point`` it crashes (1 for the first).
    let occurrence: Int

    private let passed = Atomic<Int>(0)
    private let recovered = Mutex<Set<EventID>>([])

    init(point: CrashPoint?, occurrence: Int) {
        self.point = point
        self.occurrence = occurrence
    }

    /// Counts `count` occurrences of `point` (the posts of a batch the store is given), and
    /// crashes if the chosen one is among them: a store point crashes at the batch that holds
    /// the run's n-th post, so that the kill lands whenever the run has that many posts,
    /// however the posts were batched.
    func pass(_ point: CrashPoint, count: Int = 1) {
        guard point == self.point, count > 0 else { return }
        let after = passed.add(count, ordering: .relaxed).newValue
        if after >= occurrence && after - count < occurrence { crash(at: point) }
    }

    /// Notes the posts the store handed back as unfinished (the ones this run redelivers).
    func noteRecovered(_ ids: some Sequence<EventID>) {
        recovered.withLock { $0.formUnion(ids) }
    }

    /// Called by the handler for every post it handles: counts ``CrashPoint/insideHandler``,
    /// and ``CrashPoint/duringRedelivery`` for a recovered post. A run that recovered fewer posts
    /// than ``occurrence`` crashes at its last redelivery, so that the kill lands whenever there
    /// was anything to redeliver.
    func passHandler(of id: EventID) {
        pass(.insideHandler)
        guard point == .duringRedelivery else { return }
        let (isRecovered, count) = recovered.withLock { ($0.contains(id), $0.count) }
        guard isRecovered else { return }
        if passed.add(1, ordering: .relaxed).newValue == min(occurrence, count) {
            crash(at: .duringRedelivery)
        }
    }

    /// How many occurrences of ``point`` passed.
    var passes: Int { passed.load(ordering: .relaxed) }

    /// Whether the run is still to crash (its point was not reached yet).
    var isArmed: Bool {
        guard point != nil else { return false }
        return passed.load(ordering: .relaxed) < occurrence
    }
}
