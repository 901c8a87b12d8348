import GRPCCore
import Synchronization
import Testing

@testable import ResponderChainGRPC

@Suite("Calls in flight through one transport are capped, first come first served", .timeLimit(.minutes(1)))
struct CallLimiterTests {
    @Test(
        "a transport configured with fewer than one call in flight is refused, typed, when it is made",
        arguments: [0, -3])
    func limitBelowOneIsRefused(_ limit: Int) throws {
        for make in [
            { _ = try GRPCRemoteTransport(host: "127.0.0.1", port: 1, maxCallsInFlight: limit) },
            {
                var options = GRPCMultiBackendTransport.Options()
                options.maxCallsInFlight = limit
                _ = try GRPCMultiBackendTransport(addresses: [("127.0.0.1", 1)], options: options)
            },
        ] as [() throws -> Void] {
            let error = try #require(throws: RPCError.self) { try make() }
            #expect(error.code == .invalidArgument)
            #expect(error.message == "maxCallsInFlight must be at least 1, not \(limit)")
        }
    }

    @Test("past the limit callers wait, and each ended call lets in the one that waited longest")
    func waitersGoInArrivalOrder() async throws {
        let limiter = CallLimiter(limit: 2)
        try await limiter.acquire()
        try await limiter.acquire()
        let admitted = Admitted()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<3 {
                group.addTask {
                    try await limiter.acquire()
                    admitted.list.withLock { $0.append(number) }
                }
                // Each waiter is in the line before the next one arrives.
                await Self.until { limiter.waitingCount == number + 1 }
            }
            #expect(admitted.list.withLock { $0 }.isEmpty)
            for expected in 0..<3 {
                limiter.release()
                await Self.until { admitted.list.withLock { $0.count } == expected + 1 }
            }
            try await group.waitForAll()
        }
        #expect(admitted.list.withLock { $0 } == [0, 1, 2])
    }

    @Test("a waiter whose task is cancelled leaves the line at once, and the next one takes the freed place")
    func cancelledWaiterLeaves() async throws {
        let limiter = CallLimiter(limit: 1)
        try await limiter.acquire()
        let first = Task { try await limiter.acquire() }
        await Self.until { limiter.waitingCount == 1 }
        let second = Task { try await limiter.acquire() }
        await Self.until { limiter.waitingCount == 2 }

        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(limiter.waitingCount == 1)

        limiter.release()
        try await second.value
        #expect(limiter.waitingCount == 0)
    }

    @Test("a task cancelled before it waits does not wait")
    func cancelledBeforeWaiting() async throws {
        let limiter = CallLimiter(limit: 1)
        try await limiter.acquire()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await limiter.acquire()
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(limiter.waitingCount == 0)
    }

    /// The waiters admitted, in order.
    private final class Admitted: Sendable {
        let list = Mutex<[Int]>([])
    }

    /// Returns once `condition` holds, letting the tasks that make it true run meanwhile.
    private static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }
}
