import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Proxies and catch-all sinks")
    struct ProxyTests {
        @Test(
            "a proxy beside a responder gets the events the responder's own table lacks: the send ends there when it handles, and goes on to next when it passes and there is no catch-all",
            arguments: [true, false])
        func proxyHandlesOrPassesToNext(handles: Bool) async throws {
            let root = RootSink(.handled)
            let proxy = EventProxy(handles ? .handled : .pass)
            let controller = Controller(proxy: proxy, parent: root)

            let outcome = await controller.send(Knock())

            let handled = try #require(outcome.handledDetails)
            let stoppedAt = handles ? ResponderID(controller) : ResponderID(root)
            #expect(handled.stoppedAt == stoppedAt)
            #expect(handled.handlers == [stoppedAt])
            if handles { #expect(handled.info[Tag.self] == "proxy") }
            #expect(await proxy.seen == ["Knock"])
            #expect(await root.seen == (handles ? [] : ["Knock"]))
        }

        @Test("the responder's own entry wins over its proxy")
        func ownEntryFirst() async throws {
            let proxy = EventProxy(.handled)
            let controller = Controller(proxy: proxy, parent: RootSink())

            let outcome = await controller.send(Ping())

            #expect(outcome.kind == .handled)
            #expect(await controller.pings == 1)
            #expect(await proxy.seen.isEmpty)
        }

        @Test("a proxy that passes lets the responder's catch-all handle the event")
        func proxyPassesToFallback() async throws {
            let root = RootSink(.handled)
            let proxy = EventProxy(.pass)
            let controller = Controller(proxy: proxy, fallback: .handled, parent: root)

            let outcome = await controller.send(Knock())

            #expect(try #require(outcome.handledDetails).stoppedAt == ResponderID(controller))
            #expect(await proxy.seen == ["Knock"])
            #expect(await controller.fallbackSaw == ["Knock"])
            #expect(await root.seen.isEmpty)
        }

        @Test("with no proxy set, the event goes on to next")
        func noProxy() async throws {
            let root = RootSink(.handled)
            let controller = Controller(proxy: nil, parent: root)

            let outcome = await controller.send(Knock())

            #expect(try #require(outcome.handledDetails).stoppedAt == ResponderID(root))
            #expect(outcome.hops == 2)
        }

        @Test("a catch-all root sink sees every event that reaches it, typed or named")
        func catchAllRoot() async throws {
            let root = RootSink(.handled)
            let leaf = Station(named: "leaf", .pass, parent: root)

            let outcomes = [
                await leaf.send(Ping()),
                await leaf.send(Knock()),
                await leaf.send(.addToCart, payload: "A-1"),
            ]

            #expect(outcomes.map(\.kind) == [.handled, .handled, .handled])
            #expect(outcomes.map(\.handlers) == Array(repeating: [ResponderID(root)], count: 3))
            #expect(await root.seen == ["Ping", "Knock", "addToCart"])
        }

        @Test(
            "proxies that lead back to a table already running at the hop end the send failed with a proxy cycle error",
            arguments: [1, 2, 3])
        func proxyCycle(length: Int) async throws {
            let root = RootSink(.handled)
            let ring = (0..<length).map { _ in Controller(proxy: nil, parent: root) }
            for (index, controller) in ring.enumerated() {
                await controller.delegate(to: ring[(index + 1) % length])
            }

            let outcome = await ring[0].send(Knock())

            let failure = try #require(outcome.failedDetails)
            let cycle = try #require(failure.error as? ResponderChainError)
            #expect(cycle.code == .proxyCycle)
            #expect(cycle.responder == ResponderID(ring[0]))
            #expect(failure.responder == ResponderID(ring[0]))
            #expect(failure.hop == 1)
            #expect(await root.seen.isEmpty)
        }

        @Test("one proxy serving two responders of a chain is not a cycle")
        func sharedProxyIsNoCycle() async throws {
            let root = RootSink(.handled)
            let proxy = EventProxy(.pass)
            let upper = Controller(proxy: proxy, parent: root)
            let lower = Controller(proxy: proxy, parent: upper)

            let outcome = await lower.send(Knock())

            #expect(outcome.kind == .handled)
            #expect(await proxy.seen == ["Knock", "Knock"])
        }
    }
}
