import Synchronization

/// Baseline for scenario 13's day of retries: the same schedule written by hand, with nothing
/// of the library. One task per failing job calls a failing actor method, picks its next instant
/// (the same doubling backoff, no jitter: every instant is distinct anyway) and parks on a
/// hand-written virtual clock; a driver task wakes the earliest parked job and waits until it
/// has parked again or finished, exactly as a manual clock fires one timer at a time and waits
/// for the work it started.
///
/// What it measures is the handoff the library cannot avoid on a test clock: two task wake-ups
/// per retry across the runtime's thread pool.
enum BareRetryDay {
    /// The wall time, in nanoseconds, of `jobs` jobs failing `attempts` times each.
    static func run(jobs: Int, attempts: Int) async -> Double {
        let clock = BareVirtualClock()
        let desk = BareFailingDesk()
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for job in 0..<jobs {
                group.addTask {
                    var now: Int64 = 0
                    for attempt in 1...attempts {
                        do { try await desk.attempt(job) } catch {}
                        if attempt == attempts { break }
                        let backoff = min(Int64(300) << Int64(attempt - 1), 21_600) * 1_000_000_000
                        now = await clock.sleep(until: now + backoff + Int64(job), job: job)
                    }
                    clock.finished()
                }
            }
            await clock.drive(jobs: jobs)
        }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// The failing handler of ``BareRetryDay``.
private actor BareFailingDesk {
    private var failures = 0

    func attempt(_ job: Int) throws {
        failures += 1
        throw BareFailure()
    }
}

private struct BareFailure: Error {}

/// A hand-written virtual clock for ``BareRetryDay``: sleepers park with their instant; the
/// driver wakes the earliest, then waits until it parks again or finishes.
private final class BareVirtualClock: Sendable {
    fileprivate struct State {
        var parked = BareSleeperHeap()
        var settled: CheckedContinuation<Void, Never>?
        var pendingSettles = 0
        var finished = 0
    }

    private let state = Mutex(State())

    /// Parks the calling job until the driver wakes it at `instant`; returns the instant.
    func sleep(until instant: Int64, job: Int) async -> Int64 {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state in
                state.parked.push(BareSleeper(instant: instant, job: job, continuation: continuation))
                return state.takeSettled()
            }
            settled?.resume()
        }
    }

    /// A job ends.
    func finished() {
        state.withLock { state in
            state.finished += 1
            return state.takeSettled()
        }?.resume()
    }

    /// Waits until all `jobs` have parked once, then wakes the earliest parked job at a time,
    /// each once the one before has parked again or finished, until every job has finished.
    func drive(jobs: Int) async {
        await waitUntil { $0.parked.count + $0.finished == jobs }
        while true {
            let next = state.withLock { state -> (Int64, CheckedContinuation<Int64, Never>)? in
                guard let woken = state.parked.pop() else { return nil }
                state.pendingSettles += 1
                return (woken.instant, woken.continuation)
            }
            guard let (instant, continuation) = next else { return }
            await withCheckedContinuation { (settled: CheckedContinuation<Void, Never>) in
                state.withLock { $0.settled = settled }
                continuation.resume(returning: instant)
            }
        }
    }

    private func waitUntil(_ condition: @Sendable (State) -> Bool) async {
        while !state.withLock({ condition($0) }) { await Task.yield() }
    }
}

extension BareVirtualClock.State {
    /// The driver's wait, once the woken job has parked again or finished.
    fileprivate mutating func takeSettled() -> CheckedContinuation<Void, Never>? {
        guard pendingSettles > 0, let settled else { return nil }
        pendingSettles -= 1
        self.settled = nil
        return settled
    }
}

/// A parked job of ``BareVirtualClock``.
private struct BareSleeper {
    let instant: Int64
    let job: Int
    let continuation: CheckedContinuation<Int64, Never>

    func precedes(_ other: BareSleeper) -> Bool {
        (instant, job) < (other.instant, other.job)
    }
}

/// A binary min-heap of parked jobs by instant.
private struct BareSleeperHeap {
    private var items: [BareSleeper] = []

    var count: Int { items.count }

    mutating func push(_ sleeper: BareSleeper) {
        items.append(sleeper)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].precedes(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> BareSleeper? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let earliest = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < items.count, items[left].precedes(items[first]) { first = left }
            if right < items.count, items[right].precedes(items[first]) { first = right }
            if first == parent { break }
            items.swapAt(parent, first)
            parent = first
        }
        return earliest
    }
}
