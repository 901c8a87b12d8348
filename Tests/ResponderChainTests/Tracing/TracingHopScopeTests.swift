import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

private typealias F = TracingFixtures

@Suite("Hop scope")
struct TracingHopScopeTests {
    @Test("a task-local bound by the scope is visible inside each handler, and not after")
    func scopeWrapsHandlers() async {
        let tracer = F.ScopedTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let middle = F.Station(tracing: "Middle", .pass, parent: top)
        let screen = await F.Screen("Screen", .pass, parent: middle)

        let outcome = await screen.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(await screen.sightingsInScope.map(\.hopMarker) == ["hop 1"])
        #expect(await middle.sightingsInScope.map(\.hopMarker) == ["hop 2"])
        #expect(await top.sightingsInScope.map(\.hopMarker) == ["hop 3"])
        #expect(F.hopMarker == nil)
    }

    @Test("the scope wraps the handlers only: point events and the read of next run outside it")
    func scopeWrapsHandlersOnly() async {
        let tracer = F.ScopedTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let watcher = F.Watcher(parent: top)

        let outcome = await watcher.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(await watcher.markersInHandler == ["hop 1"])
        #expect(await watcher.markersReadingNext == [nil])
        #expect(await top.sightingsInScope.map(\.hopMarker) == ["hop 2"])
        // sent, enter 1, leave 1, enter 2, leave 2, finished: all recorded outside any scope.
        #expect(RecordingTracer.shape(of: tracer.recorder.events).count == 6)
        #expect(tracer.markersAtRecord.withLock { $0 } == Array(repeating: nil, count: 6))
    }

    @Test("without a tracer, handlers run with no scope around them")
    func noTracerNoScope() async {
        let top = F.Station(tracing: "Top", .handle, root: true)
        _ = await top.send(F.Ping())
        #expect(await top.sightingsInScope.map(\.hopMarker) == [nil])
    }

    @Test("a plain Tracer runs no scope: a withHop method on it is an ordinary method, never called")
    func plainTracerHasNoScope() async {
        let tracer = F.PlainTracerWithStrayScope()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)

        let outcome = await leaf.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(await leaf.sightingsInScope.map(\.hopMarker) == [nil])
        #expect(await top.sightingsInScope.map(\.hopMarker) == [nil])
        #expect(tracer.strayCalls.withLock { $0 } == 0)
        #expect(
            tracer.recorder.shape(for: outcome.eventID) == [
                "sent", "enter 1", "leave 1", "enter 2", "leave 2", "finished",
            ])
    }

    @Test("a scope written as a plain async method (its body nonisolated(nonsending)) still wraps each hop")
    func concurrentScopeIsCalled() async {
        let top = F.Station(tracing: "Top", .handle, root: true)
        let screen = await F.Screen("Screen", .pass, parent: top)

        let outcome = await screen.send(F.Ping(), options: SendOptions(tracer: F.ConcurrentScopeTracer()))

        #expect(outcome.kind == .handled)
        #expect(await screen.sightingsInScope.map(\.hopMarker) == ["concurrent 1"])
        #expect(await top.sightingsInScope.map(\.hopMarker) == ["concurrent 2"])
    }

    @Test("the scope sees the hop's responder, number and isolation")
    func scopeSeesHop() async {
        let tracer = F.ScopedTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let screen = await F.Screen("Screen", .pass, parent: top)

        let outcome = await screen.send(F.Ping(), options: SendOptions(tracer: tracer))

        let entered = tracer.recorder.enteredHops(for: outcome.eventID)
        #expect(entered.map(\.responder) == [ResponderID(screen), ResponderID(top)])
        #expect(entered.map(\.isolation) == [.mainActor, .responder])
        #expect(entered.map(\.isolation.description) == ["MainActor", "actor"])
    }
}
