import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Testing

/// A gRPC transport a test runs for the duration of a link: ``GRPCRemoteTransport`` to one
/// backend process, ``GRPCMultiBackendTransport`` over several.
protocol RunningTransport: RemoteTransport {
    func run() async throws
    func shutDown()
}

extension GRPCRemoteTransport: RunningTransport {}
extension GRPCMultiBackendTransport: RunningTransport {}

/// Runs `body` with a link (labelled `link`, to the entry `orders`, its registry checked unless
/// `checkingRegistry` is false: a server that answers no call, or none there) over `transport`,
/// which runs for the duration of `body`.
func withLink(
    over transport: some RunningTransport, in system: EventSystem, checkingRegistry: Bool = true,
    _ body: (RemoteLink) async throws -> Void
) async throws {
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await transport.run() }
        defer { transport.shutDown() }
        let link = RemoteLink(
            entry: "orders", transport: transport, registry: ordersRegistry(), label: "link", system: system)
        if checkingRegistry { try await link.checkRegistry() }
        try await body(link)
    }
}

/// Checks that each of `all` ended once: distinct events, the dead-letter sink got exactly
/// `interrupted` (all of them interrupted), the tracer saw each of `all` finish once and nothing
/// else, and `system` holds no post.
func expectEachEndedOnce(
    _ all: [Outcome], interrupted: [Outcome], letters: DeadLetterRecorder, tracer: RecordingTracer,
    system: EventSystem, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(Set(all.map(\.eventID)).count == all.count, sourceLocation: sourceLocation)
    #expect(
        letters.outcomes.map(\.kind) == Array(repeating: .interrupted, count: interrupted.count),
        sourceLocation: sourceLocation)
    #expect(
        Set(letters.outcomes.map(\.eventID)) == Set(interrupted.map(\.eventID)),
        sourceLocation: sourceLocation)
    let finished = tracer.outcomes.map(\.eventID)
    #expect(finished.count == all.count, sourceLocation: sourceLocation)
    #expect(Set(finished) == Set(all.map(\.eventID)), sourceLocation: sourceLocation)
    #expect(system.outstandingPosts == 0, sourceLocation: sourceLocation)
}
