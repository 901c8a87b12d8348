/// The peers' isolation: a global actor whose executor is one dedicated thread
/// (``ThreadExecutor``). Every peer chain is made, driven and torn down there, so the sender is
/// already on the thread its chain lives on, as code on a NIO event loop is.
@globalActor
actor PeerThread {
    static let shared = PeerThread()

    private static let executor = ThreadExecutor(name: "peer-bench peers")

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        Self.executor.asUnownedSerialExecutor()
    }
}
