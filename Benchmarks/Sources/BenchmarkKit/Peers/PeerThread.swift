import NIOCore
import NIOPosix

/// The peers' isolation: a global actor whose executor is the one thread of a SwiftNIO event loop
/// group of its own. Every peer chain is made, driven and torn down there, so the sender is already
/// on the thread its chain lives on, as code on a NIO event loop is.
///
/// The main actor cannot be that thread: on Linux, once top-level code has suspended, the main
/// actor's jobs run on whichever thread drains the main queue, and an `EmbeddedChannel` must be
/// used on the thread that made it.
@globalActor
actor PeerThread {
    static let shared = PeerThread()

    /// The group's one loop, as the serial executor it is (NIOPosix's loops run Swift jobs
    /// themselves, on their own identity), kept for the life of the process: an unowned executor
    /// must outlive every job enqueued on it.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private static let loop: any NIOSerialEventLoopExecutor = {
        guard let loop = group.next() as? any NIOSerialEventLoopExecutor else {
            fatalError("NIOPosix's event loops are serial executors")
        }
        return loop
    }()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        Self.loop.asUnownedSerialExecutor()
    }
}
