/// The sends no caller awaits, kept in one place: a window's released pointer phases (in order)
/// and its sequences' `cancelled` (each on its own), a gesture recognizer's chain events (in
/// order).
///
/// One task drains the ordered jobs while there are any, then ends; the next job queued starts
/// another. A lane that `startsImmediately` starts each task on the main actor before the call
/// returns (`Task.immediate`): the hops of its first job that do not suspend have run by then.
///
/// A job queued from inside one of this lane's own jobs (a handler of a recognizer's chain event
/// taps the window, and the recognizer recognizes again) cannot wait behind the job under way:
/// that job waits for it. It runs beside the queue instead, and ``sent()`` waits for it too.
/// A job started ``unordered(_:)`` runs at once, beside everything, and nothing waits for it.
@MainActor
package final class SendLane {
    /// One unit of work: the sends it makes end before the next job starts.
    package typealias Job = @MainActor () async -> Void

    /// The lanes whose job the current task is running.
    @TaskLocal private static var draining: [ObjectIdentifier] = []

    private let startsImmediately: Bool
    /// The jobs queued and not started, in order; `head` is the next.
    private var queue: [Job] = []
    private var head = 0
    /// Whether a task is draining the queue.
    private var isDraining = false
    /// How many queued jobs were queued, and how many have ended (they end in order).
    private var queuedCount = 0
    private var endedCount = 0
    /// The jobs running beside the queue (queued from inside a job of this lane), by number.
    private var besideUnderWay: Set<Int> = []
    private var nextBeside = 0
    /// How many unordered jobs are running.
    private var unorderedUnderWay = 0
    /// The callers of ``sent()`` still waiting, with what they wait for.
    private var waiters: [Waiter] = []

    private struct Waiter {
        let queuedUpTo: Int
        let beside: Set<Int>
        let continuation: CheckedContinuation<Void, Never>
    }

    /// A lane whose drain starts before ``enqueue(_:)`` returns when `startsImmediately`, in a
    /// task of its own otherwise.
    package init(startsImmediately: Bool) {
        self.startsImmediately = startsImmediately
    }

    /// Whether no job is queued or running, in order, beside or unordered.
    package var isIdle: Bool { !isDraining && besideUnderWay.isEmpty && unorderedUnderWay == 0 }

    /// Starts `job` at once, beside every other job: its order with them does not matter (a
    /// cancelled sequence's `cancelled`). ``sent()`` does not wait for it.
    package func unordered(_ job: @escaping Job) {
        unorderedUnderWay += 1
        start {
            await job()
            self.unorderedUnderWay -= 1
        }
    }

    /// Queues `job` after every job queued before it (or, from inside one of this lane's jobs,
    /// runs it beside the queue).
    package func enqueue(_ job: @escaping Job) {
        let id = ObjectIdentifier(self)
        if Self.draining.contains(id) {
            let number = nextBeside
            nextBeside += 1
            besideUnderWay.insert(number)
            start {
                await job()
                self.besideUnderWay.remove(number)
                self.resumeWaiters()
            }
            return
        }
        queue.append(job)
        queuedCount += 1
        guard !isDraining else { return }
        isDraining = true
        start { await Self.$draining.withValue(Self.draining + [id]) { await self.drain() } }
    }

    /// Waits until every job queued before this call has ended (from inside one of this lane's
    /// own jobs: every job it queued beside). Unordered jobs are not waited for.
    package func sent() async {
        let inside = Self.draining.contains(ObjectIdentifier(self))
        let queuedUpTo = inside ? 0 : queuedCount
        let beside = besideUnderWay
        guard endedCount < queuedUpTo || !beside.isEmpty else { return }
        await withCheckedContinuation { continuation in
            waiters.append(Waiter(queuedUpTo: queuedUpTo, beside: beside, continuation: continuation))
        }
    }

    /// Runs the queued jobs in order until none is left.
    private func drain() async {
        while head < queue.count {
            let job = queue[head]
            head += 1
            await job()
            endedCount += 1
            resumeWaiters()
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
        isDraining = false
    }

    /// Resumes the waiters whose jobs have all ended.
    private func resumeWaiters() {
        guard !waiters.isEmpty else { return }
        var still: [Waiter] = []
        for waiter in waiters {
            if endedCount >= waiter.queuedUpTo && waiter.beside.isDisjoint(with: besideUnderWay) {
                waiter.continuation.resume()
            } else {
                still.append(waiter)
            }
        }
        waiters = still
    }

    /// Starts `work` on the main actor: before this returns when the lane starts immediately.
    private func start(_ work: @escaping @MainActor () async -> Void) {
        if startsImmediately, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            Task.immediate { await work() }
        } else {
            Task { await work() }
        }
    }
}
