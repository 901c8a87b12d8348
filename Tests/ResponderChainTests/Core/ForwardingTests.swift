import ResponderChain
import ResponderChainTesting
import Testing

/// The end of a chain that hands every event to another chain (in its own system) through a
/// relay, and throws that chain's outcome as ``Forwarded``; or, when `post` is set, posts it and
/// throws the ticket's outcome.
private actor Bridge: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let label = "bridge"
    let backend: Relay
    let posts: Bool
    /// Set to report the other chain unreachable instead of handing the event over.
    var isCut = false

    init(to entry: any Responder, system: EventSystem, backendSystem: EventSystem, posts: Bool = false) {
        self.eventSystem = system
        self.backend = Relay(entry: entry, label: "bridge", system: backendSystem)
        self.posts = posts
    }

    func cut() { isCut = true }

    var next: (any Responder)? { nil }

    static let strategies = Strategies<Bridge> {
        $0.onAnyEvent { bridge, event, context in
            if bridge.isCut {
                let nothing = Outcome.Path(eventID: context.eventID, hops: 0, handlers: [])
                return .forwarded(
                    .interrupted(
                        Outcome.Interruption(
                            path: nothing, lastReached: ResponderID(bridge), cause: Unreachable())))
            }
            let options = SendOptions(deadline: context.deadline, info: context.info)
            if bridge.posts {
                return .forwarded(await bridge.backend.post(event, options: options).outcome)
            }
            return .forwarded(await bridge.backend.send(event, options: options))
        }
    }
}

/// What a cut bridge reports.
private struct Unreachable: Error, CustomStringConvertible {
    var description: String { "unreachable" }
}

/// Two chains in two systems: `front` (`f0` the sender … `f1`, then the bridge) and `back`
/// (`b0` … `b2`, a root unless told otherwise), with a dead-letter recorder on each system.
private struct TwoChains {
    let journal = Journal()
    let frontLetters = DeadLetterRecorder()
    let backLetters = DeadLetterRecorder()
    let frontSystem: EventSystem
    let backSystem: EventSystem
    let front: [Node]
    let back: [Node]
    let bridge: Bridge

    init(
        front frontSpecs: [NodeSpec] = [.bubble(.tag("front", then: .handledAndContinue)), .bubble(.pass)],
        back backSpecs: [NodeSpec], backIsRooted: Bool = true, capture: Bool = false, posts: Bool = false,
        frontTracer: (any Tracer)? = nil
    ) {
        frontSystem = EventSystem(
            tracer: frontTracer, deadLetters: frontLetters.sink, runsCapturePhase: capture)
        backSystem = EventSystem(deadLetters: backLetters.sink)
        back = makeNodes(backSpecs, topIsRoot: backIsRooted, system: backSystem, journal: journal)
        bridge = Bridge(to: back[0], system: frontSystem, backendSystem: backSystem, posts: posts)
        front = makeNodes(frontSpecs, topIsRoot: false, system: frontSystem, journal: journal)
    }

    /// Links the front chain's top to the bridge.
    func link() async {
        await front[front.count - 1].link(to: bridge)
    }
}

@Suite("Forwarding to another chain: one outcome for the whole path", .timeLimit(.minutes(1)))
struct ForwardingTests {
    @Test(
        "an event handled in the other chain ends handled there, with both chains' hops, handlers and information in order"
    )
    func handledElsewhere() async throws {
        let chains = TwoChains(back: [
            .bubble(.appendTrail(then: .handledAndContinue)), .bubble(.handle), .bubble(.pass),
        ])
        await chains.link()

        let outcome = await chains.front[0].send(Ping())

        let handled = try #require(outcome.handledDetails)
        #expect(handled.stoppedAt == ResponderID(chains.back[1]))
        #expect(handled.hops == 5)  // f0, f1, the bridge; b0, b1
        #expect(
            handled.handlers == [
                ResponderID(chains.front[0]), ResponderID(chains.back[0]), ResponderID(chains.back[1]),
            ])
        #expect(handled.info[Tag.self] == "front")  // added in the front chain, carried over
        #expect(handled.info[Trail.self] == ["n0"])  // added in the back chain
        #expect(outcome.eventID == handled.path.eventID)
        // The back chain's handlers saw the front's information from their first hop.
        #expect(
            chains.journal.names == ["n0.bubble", "n1.bubble[front]", "n0.bubble[front]", "n1.bubble[front]"])
        #expect(chains.frontLetters.count == 0)
    }

    @Test(
        "each ending of the other chain is the ending of the whole send, naming the responder there, hop numbers counted from the front",
        arguments: [
            ([NodeSpec.bubble(.pass), .bubble(.pass), .bubble(.pass)], true, Outcome.Kind.unhandled, 2, 6),
            ([.bubble(.pass), .bubble(.pass), .bubble(.pass)], false, .interrupted, 2, 6),
            ([.bubble(.pass), .bubble(.fail), .bubble(.pass)], true, .failed, 1, 5),
        ])
    func everyEnding(back: [NodeSpec], rooted: Bool, kind: Outcome.Kind, named: Int, hops: Int) async throws {
        let chains = TwoChains(back: back, backIsRooted: rooted)
        await chains.link()

        let outcome = await chains.front[0].send(Ping())

        #expect(outcome.kind == kind)
        #expect(outcome.hops == hops)
        let expected = ResponderID(chains.back[named])
        switch outcome {
        case .unhandled(let unhandled): #expect(unhandled.root == expected)
        case .interrupted(let broken): #expect(broken.lastReached == expected)
        case .failed(let failure):
            #expect(failure.responder == expected)
            #expect(failure.hop == 5)
            #expect(failure.error is Boom)
        default: Issue.record("unexpected \(outcome)")
        }
        // Both systems account for it: the back chain's send is one of its own.
        if outcome.goesToDeadLetters {
            #expect(chains.frontLetters.outcomes.map(\.kind) == [kind])
            #expect(chains.backLetters.outcomes.map(\.kind) == [kind])
        } else {
            #expect(chains.frontLetters.count == 0)
        }
    }

    @Test(
        "a deadline the front send carries over passes in the other chain: timed out there, at the front's hop count"
    )
    func deadlineCarriedOver() async throws {
        let gate = Gate()  // never opened: only the deadline ends the wait
        let chains = TwoChains(back: [.bubble(.pass), .bubble(.park(gate, then: .pass)), .bubble(.pass)])
        await chains.link()

        let outcome = await chains.front[0].send(Ping(), options: SendOptions(timeout: .seconds(1)))

        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.responder == ResponderID(chains.back[1]))
        #expect(stop.hop == 5)
        #expect(stop.whileHandling)
        #expect(stop.hops == 5)
    }

    @Test(
        "cancelling the sender while the other chain's handler is parked ends the send cancelled where that chain stopped"
    )
    func cancelledElsewhere() async throws {
        let gate = Gate()
        let chains = TwoChains(back: [.bubble(.park(gate, then: .pass)), .bubble(.pass), .bubble(.pass)])
        await chains.link()

        let sending = Task { await chains.front[0].send(Ping()) }
        try await gate.waitForArrivals(1)
        sending.cancel()
        let outcome = await sending.value

        let stop = try #require(outcome.cancelledDetails)
        #expect(stop.responder == ResponderID(chains.back[0]))
        #expect(stop.hop == 4)
        #expect(stop.reason == .taskCancelled)
    }

    @Test(
        "an event the other system refuses ends rejected, with the front chain's hops, and is dead-lettered in front"
    )
    func refusedElsewhere() async throws {
        let chains = TwoChains(back: [.bubble(.handle)], posts: true)
        await chains.link()
        _ = await chains.backSystem.shutDown(gracePeriod: .zero)

        let outcome = await chains.front[0].send(Ping())

        let rejection = try #require(outcome.rejectedDetails)
        #expect(rejection.reason == .shuttingDown)
        #expect(rejection.path.hops == 3)
        #expect(rejection.path.handlers == [ResponderID(chains.front[0])])
        #expect(chains.frontLetters.outcomes.map(\.kind) == [.rejected])
    }

    @Test(
        "a link that cannot reach the other chain ends the send interrupted at the link, with the cause, dead-lettered in front"
    )
    func unreachable() async throws {
        let chains = TwoChains(back: [.bubble(.handle)])
        await chains.link()
        await chains.bridge.cut()

        let outcome = await chains.front[0].send(Ping())

        let broken = try #require(outcome.interruptedDetails)
        #expect(broken.lastReached == ResponderID(chains.bridge))
        #expect(broken.cause is Unreachable)
        #expect(broken.hops == 3)
        #expect(outcome.description == "interrupted after bridge (unreachable) after 3 hops")
        #expect(chains.frontLetters.outcomes.map(\.kind) == [.interrupted])
        #expect(chains.journal.names == ["n0.bubble", "n1.bubble[front]"])
    }

    @Test("capture in the front chain keeps its counts; the other chain's handlers follow the front's")
    func captureCountsAreTheFronts() async throws {
        let chains = TwoChains(
            front: [.bubble(.pass), .both(.handleAndContinue, .handleAndContinue)],
            back: [.bubble(.handle)], capture: true)
        await chains.link()

        let outcome = await chains.front[0].send(Ping())

        let handled = try #require(outcome.handledDetails)
        #expect(handled.path.captureHops == 1)
        #expect(handled.path.captureHandlers == [ResponderID(chains.front[1])])
        #expect(
            handled.handlers == [
                ResponderID(chains.front[1]), ResponderID(chains.front[1]), ResponderID(chains.back[0]),
            ])
        #expect(handled.hops == 5)  // capture f1; f0, f1, the bridge; b0
        #expect(handled.phase == .bubble)
    }

    @Test("a traced forwarding hop reports the other chain's outcome; the send finishes with the merged one")
    func tracedForwardingHop() async throws {
        let tracer = RecordingTracer()
        let chains = TwoChains(back: [.bubble(.handle)], frontTracer: tracer)
        await chains.link()

        let outcome = await chains.front[0].send(Ping())

        let bridgeHop = try #require(tracer.hops(for: outcome.eventID).last)
        #expect(bridgeHop.hop.responder == ResponderID(chains.bridge))
        #expect(bridgeHop.forwardedOutcome?.kind == .handled)
        #expect(bridgeHop.resultDescription.hasPrefix("forwarded: handled by n0"))
        #expect(tracer.outcomes.map(\.hops) == [4])
    }

    @Test("an outcome made outside a send keeps what it was given")
    func publicInitializers() {
        let a = ResponderID(objectID: ObjectIdentifier(Journal()), label: "remote/a")
        let path = Outcome.Path(
            eventID: EventID(epoch: 0, sequence: 7), hops: 3, captureHops: 1, handlers: [a, a],
            captureHandlerCount: 1)
        #expect(path.handlers == [a, a])
        #expect(path.captureHandlers == [a])
        let outcome = Outcome.handled(Outcome.Handled(path: path, stoppedAt: a))
        #expect(outcome.description.contains("remote/a"))
        #expect(outcome.hops == 3)
    }
}
