import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Synchronous handlers")
    struct SynchronousHandlerTests {
        @Test("a handler closure with no await registers as synchronous; one that awaits, as asynchronous")
        func overloadFollowsTheClosure() {
            #expect(Counter.strategies.isSynchronous(Ping.self) == true)
            #expect(Counter.strategies.isSynchronous(Knock.self) == false)
            #expect(Counter.strategies.isSynchronous(Tick.self) == nil)
            #expect(Screen.strategies.isSynchronous(Ping.self) == true)
            #expect(Screen.strategies.isSynchronous(Knock.self) == false)
        }

        @Test("synchronous and asynchronous handlers decide the same way and see the same context")
        func bothKindsHandle() async throws {
            let counter = Counter()

            let ping = await counter.send(Ping(), options: SendOptions(info: info(7)))
            let knock = await counter.send(Knock(), options: SendOptions(info: info(7)))

            #expect(ping.handledDetails?.info[Tally.self] == 8)
            #expect(knock.handledDetails?.info[Tally.self] == 9)
            #expect(await counter.count == 2)
        }

        @Test(
            "a proxy actor's synchronous handler runs on the proxy's actor when another actor's hop asks it")
        func proxyActorRunsOnItsOwnActor() async throws {
            let proxy = Counter()
            let owner = Delegating(to: proxy)

            let outcome = await owner.send(Ping())

            #expect(outcome.handledDetails?.stoppedAt == ResponderID(owner))
            #expect(await proxy.count == 1)
            #expect(await proxy.isolatedRuns == 1)
        }

        @Test("a main-actor proxy's synchronous handler runs on the main actor when an actor's hop asks it")
        @MainActor
        func mainActorProxyRunsOnTheMainActor() async throws {
            let screen = Screen()
            let owner = Delegating(to: screen)

            let outcome = await owner.send(Ping())

            #expect(outcome.isHandled)
            #expect(screen.pings == 1)
        }

        @Test("a synchronous handler that throws ends the send failed with its error")
        func synchronousThrow() async throws {
            let counter = Counter()

            let outcome = await counter.send(Tock())

            let failure = try #require(outcome.failedDetails)
            #expect(failure.error is Refusal)
        }
    }
}

private enum Tally: InfoKey {
    typealias Value = Int
}

private func info(_ start: Int) -> EventInfo {
    var info = EventInfo()
    info[Tally.self] = start
    return info
}

private struct Tick: Event {}
private struct Tock: Event {}
private struct Refusal: Error {}

/// An actor with one handler of each kind.
private actor Counter: Responder {
    var count = 0
    var isolatedRuns = 0
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Counter> {
        $0.on(Ping.self) { counter, _, context in
            // Fails (crashes the test process) if a hop ran this handler off the actor.
            counter.assertIsolated("a synchronous handler ran off its actor")
            counter.count += 1
            counter.isolatedRuns += 1
            context.info[Tally.self] = (context.info[Tally.self] ?? 0) + 1
            return .handled
        }
        $0.on(Knock.self) { counter, _, context in
            await Task.yield()
            counter.count += 1
            context.info[Tally.self] = (context.info[Tally.self] ?? 0) + 2
            return .handled
        }
        $0.on(Tock.self) { _, _, _ in throw Refusal() }
    }
}

/// An actor whose own table is empty and hands every event to a proxy.
private actor Delegating: Responder {
    let proxy: any Responder
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    init(to proxy: any Responder) {
        self.proxy = proxy
    }

    static let strategies = Strategies<Delegating> { $0.proxy { $0.proxy } }
}

@MainActor
private final class Screen: MainActorResponder {
    var pings = 0
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    nonisolated static let strategies = Strategies<Screen> {
        $0.on(Ping.self) { screen, _, _ in
            MainActor.assertIsolated("a synchronous main-actor handler ran off the main actor")
            screen.pings += 1
            return .handled
        }
        $0.on(Knock.self) { _, _, _ in
            await Task.yield()
            return .handled
        }
    }
}
