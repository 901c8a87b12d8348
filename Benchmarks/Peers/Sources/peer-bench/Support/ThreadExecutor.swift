import Foundation

/// A serial executor that runs its jobs, in order, on one thread of its own, as an event loop
/// does in SwiftNIO.
///
/// The main actor cannot be that thread: on Linux, once top-level code has suspended, the main
/// actor's jobs run on whichever thread drains the main queue, and `EmbeddedChannel` must be used
/// on the thread that made it.
final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    /// Guards `jobs` and wakes the thread.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// Starts the thread; it runs for the rest of the process.
    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() -> Never {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
