import ResponderChain

/// One awaited-send loop over a chain of any depth, for `hop-instructions`: the same chains and
/// loops as responder-bench's scenarios 1-3, run once under `valgrind --tool=callgrind`, whose
/// instruction counts a busy machine does not disturb.
package enum InstructionLoop {
    /// The chains, by name: the library's and the hand-written baseline of each isolation.
    package static let chains = [
        "actors", "actors-baseline", "shared", "shared-baseline", "main", "main-baseline",
        "actors-middleware", "actors-middleware2", "actors-capture", "actors-traced", "actors-deadline",
        "posted", "posted-baseline",
    ]

    /// Builds `chain` at `depth`, warms it with 32 sends, then sends `iterations` events up it;
    /// returns the loop's checksum, or `nil` for a name not in ``chains``.
    package static func run(_ chain: String, depth: Int, iterations: Int) async -> UInt64? {
        switch chain {
        case "actors":
            await measureActors(ChainActor.chain(depth: depth), iterations)
        case "actors-baseline":
            await measure(BareActor.chain(depth: depth), iterations) {
                await AwaitedSendActors.send($0, iterations: $1)
            }
        case "actors-middleware":
            await measureActors(
                intercepting(depth: depth, system: EventSystem(middleware: [PassThroughWrapper()])),
                iterations)
        case "actors-middleware2":
            await measureActors(
                intercepting(
                    depth: depth,
                    system: EventSystem(middleware: [PassThroughWrapper(), PassThroughWrapper()])),
                iterations)
        case "actors-capture":
            await measureActors(
                intercepting(depth: depth, system: EventSystem(runsCapturePhase: true)), iterations)
        case "actors-traced":
            await measureActors(
                ChainActor.chain(depth: depth), iterations, options: SendOptions(tracer: EmptyTracer()))
        case "actors-deadline":
            // Scenario 1d's send: a deadline that is never reached.
            await measureActors(
                ChainActor.chain(depth: depth), iterations, options: SendOptions(timeout: .seconds(30)))
        case "posted":
            // Scenario 4's posts, one sender: the per-sender entry queue against a mailbox per
            // responder.
            await measure(ChainActor.chain(depth: depth), iterations) {
                await PostedEvents.post($0, senders: 1, iterations: $1)
            }
        case "posted-baseline":
            await measure(MailboxPipeline(depth: depth), iterations) {
                await PostedEvents.post($0, senders: 1, iterations: $1)
            }
        case "shared":
            await measure(sharing(Leader()) { SharedChainActor.chain(depth: depth, leader: $0) }, iterations)
            {
                await AwaitedSendSharedExecutor.send($0.chain, on: $0.leader, iterations: $1)
            }
        case "shared-baseline":
            await measure(sharing(Leader()) { BareSharedActor.chain(depth: depth, leader: $0) }, iterations) {
                await AwaitedSendSharedExecutor.send($0.chain, on: $0.leader, iterations: $1)
            }
        case "main":
            await measure(await MainChainResponder.chain(depth: depth), iterations) {
                await MainActorChain.send($0, iterations: $1)
            }
        case "main-baseline":
            await measure(await BareMainActorLink.chain(depth: depth), iterations) {
                await MainActorChain.send($0, iterations: $1)
            }
        default:
            nil
        }
    }

    /// Warms `chain` with 32 sends, then runs `send` for `iterations`; returns its checksum.
    private static func measure<Chain>(
        _ chain: Chain, _ iterations: Int, _ send: (Chain, Int) async -> Timed
    ) async -> UInt64 {
        _ = await send(chain, 32)
        return await send(chain, iterations).checksum
    }

    /// ``measure(_:_:_:)`` for a chain of actor responders (scenario 1's loop), each send with
    /// `options` when given (the plain `send(_:)` otherwise).
    private static func measureActors(
        _ bottom: some Responder, _ iterations: Int, options: SendOptions? = nil
    ) async -> UInt64 {
        await measure(bottom, iterations) { bottom, iterations in
            if let options {
                await AwaitedSendActors.send(bottom, options: options, iterations: iterations)
            } else {
                await AwaitedSendActors.send(bottom, iterations: iterations)
            }
        }
    }

    /// Scenario 7c's chain (no responder captures) in `system`: the variants around a hop.
    private static func intercepting(depth: Int, system: EventSystem) -> InterceptingActor {
        InterceptingActor.chain(depth: depth, system: system, topCaptures: false)
    }

    /// A chain on `leader`'s executor, with its leader.
    private static func sharing<Chain>(_ leader: Leader, _ make: (Leader) -> Chain) -> (
        leader: Leader, chain: Chain
    ) {
        (leader, make(leader))
    }
}
