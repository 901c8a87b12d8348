import ResponderChain
import ResponderChainSQLite
import ResponderChainTesting
import Testing

@Suite("A stored deadline is wall time, so it survives a restart")
struct DeadlineAcrossRestartTests {
    @Test("Read back by a store opened anew, a post's time left is what remained of it")
    func timeLeftAfterReopening() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let clock = ManualClock()
        let first = try SQLitePostStore(path: path, events: try .forTests(), clock: clock)
        let post = EventSystem.StoredPost(
            id: EventID(), key: "orders", entry: "orders", payload: .event(OrderPlaced(order: "o-1")),
            timeLeft: .seconds(60),
            traceContext: ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])
        _ = try await first.store([post])
        await clock.advance(by: .seconds(20))
        // The first store's own clock says 20 seconds passed: that is wall time it has seen go by.
        #expect(try await first.unfinished().first?.timeLeft == .seconds(40))

        // A store opened anew (a new process) reads the wall time again: far less than 20 s of real
        // time passed, so the deadline is about 60 s away for it.
        let reopened = try SQLitePostStore(path: path, events: try .forTests(), clock: ManualClock())
        let read = try #require(try await reopened.unfinished().first)
        let timeLeft = try #require(read.timeLeft)
        #expect(timeLeft <= .seconds(60) && timeLeft > .seconds(50))
        #expect(read.traceContext == post.traceContext)
        #expect(read.key == "orders")
    }
}
