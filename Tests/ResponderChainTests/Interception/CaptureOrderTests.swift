import ResponderChain
import ResponderChainTesting
import Testing

/// One row of the capture ordering table: a chain `n0` (sender) … `nK` (root), what each does in
/// each phase, and what must happen.
struct CaptureOrderCase: Sendable, CustomTestStringConvertible {
    let name: String
    let chain: [NodeSpec]
    var start: SendOptions.Start = .atSender
    /// The journal: `name.phase`, in the order the handlers ran.
    let journal: [String]
    let kind: Outcome.Kind
    let handlers: [String]
    let captureHandlers: [String]
    let hops: Int
    let captureHops: Int
    var intercepted = false

    var testDescription: String { name }
}

@Suite("Capture: ancestors see an event first, topmost first, then it bubbles")
struct CaptureOrderTests {
    static let cases: [CaptureOrderCase] = [
        CaptureOrderCase(
            name: "capture runs top-down to the sender, then the bubble runs up",
            chain: [.both(.pass, .pass), .both(.pass, .pass), .both(.pass, .handle)],
            journal: ["n2.capture", "n1.capture", "n0.capture", "n0.bubble", "n1.bubble", "n2.bubble"],
            kind: .handled, handlers: ["n2"], captureHandlers: [], hops: 6, captureHops: 3),
        CaptureOrderCase(
            name: "a stop in capture ends the send there: the sender never sees it",
            chain: [.both(.pass, .handle), .both(.handle, .pass), .both(.pass, .pass)],
            journal: ["n2.capture", "n1.capture"],
            kind: .handled, handlers: ["n1"], captureHandlers: ["n1"], hops: 2, captureHops: 2,
            intercepted: true),
        CaptureOrderCase(
            name: "the topmost capture handler can stop it before anyone else",
            chain: [.both(.pass, .handle), .both(.pass, .pass), .both(.handle, .pass)],
            journal: ["n2.capture"],
            kind: .handled, handlers: ["n2"], captureHandlers: ["n2"], hops: 1, captureHops: 1,
            intercepted: true),
        CaptureOrderCase(
            name: "a capture handler that handles and continues is listed first among the handlers",
            chain: [.both(.pass, .handle), .both(.pass, .pass), .both(.handleAndContinue, .pass)],
            journal: ["n2.capture", "n1.capture", "n0.capture", "n0.bubble"],
            kind: .handled, handlers: ["n2", "n0"], captureHandlers: ["n2"], hops: 4, captureHops: 3),
        CaptureOrderCase(
            name: "a decoration added in capture is seen by the sender's own handlers",
            chain: [.both(.pass, .handle), .bubble(.pass), .both(.tag("top", then: .pass), .pass)],
            journal: ["n2.capture", "n0.capture[top]", "n0.bubble[top]"],
            kind: .handled, handlers: ["n0"], captureHandlers: [], hops: 3, captureHops: 2),
        CaptureOrderCase(
            name: "responders without capture handlers are not visited in capture",
            chain: [.bubble(.pass), .bubble(.pass), .both(.pass, .pass), .bubble(.pass)],
            journal: ["n2.capture", "n0.bubble", "n1.bubble", "n2.bubble", "n3.bubble"],
            kind: .unhandled, handlers: [], captureHandlers: [], hops: 5, captureHops: 1),
        CaptureOrderCase(
            name: "a responder that handles in both phases is listed twice",
            chain: [.bubble(.pass), .both(.handleAndContinue, .handleAndContinue), .bubble(.pass)],
            journal: ["n1.capture", "n0.bubble", "n1.bubble", "n2.bubble"],
            kind: .handled, handlers: ["n1", "n1"], captureHandlers: ["n1"], hops: 4, captureHops: 1),
        CaptureOrderCase(
            name: "a send that starts at next leaves the sender out of both passes",
            chain: [.both(.handle, .handle), .both(.pass, .pass), .both(.pass, .pass)],
            start: .atNext,
            journal: ["n2.capture", "n1.capture", "n1.bubble", "n2.bubble"],
            kind: .unhandled, handlers: [], captureHandlers: [], hops: 4, captureHops: 2),
        CaptureOrderCase(
            name: "a chain with no capture handlers runs no capture hop",
            chain: [.bubble(.pass), .bubble(.handleAndContinue), .bubble(.pass)],
            journal: ["n0.bubble", "n1.bubble", "n2.bubble"],
            kind: .handled, handlers: ["n1"], captureHandlers: [], hops: 3, captureHops: 0),
    ]

    @Test("The ordering table", arguments: cases)
    func orderingTable(_ row: CaptureOrderCase) async throws {
        let (journal, nodes) = journaledNodes(row.chain)
        let outcome = await nodes[0].send(Ping(), options: SendOptions(start: row.start))

        #expect(journal.names == row.journal)
        #expect(outcome.kind == row.kind)
        #expect(outcome.handlers.map(\.label) == row.handlers)
        #expect(outcome.path.captureHandlers.map(\.label) == row.captureHandlers)
        #expect(outcome.hops == row.hops)
        #expect(outcome.path.captureHops == row.captureHops)
        if case .handled(let handled) = outcome {
            #expect(handled.wasIntercepted == row.intercepted)
            #expect(handled.phase == (row.intercepted ? .capture : .bubble))
        }
    }

    @Test("An intercepted outcome names the interceptor and says it was intercepted")
    func interceptedOutcomeNamesTheInterceptor() async throws {
        let (_, nodes) = journaledNodes([.bubble(.handle), .capture(.handle), .bubble(.pass)])
        let outcome = await nodes[0].send(Ping())
        let handled = try #require(outcome.handledDetails)
        #expect(handled.stoppedAt == ResponderID(nodes[1]))
        #expect(handled.wasIntercepted)
        #expect(outcome.description == "intercepted by n1 during capture after 1 hop")
        #expect(!outcome.goesToDeadLetters)
    }

    @Test("Hops are numbered in one sequence: capture hops first, then the bubble's")
    func hopsAreNumberedInOneSequence() async throws {
        let system = capturingSystem(tracer: RecordingTracer())
        let tracer = try #require(system.tracer as? RecordingTracer)
        let (_, nodes) = journaledNodes(
            [.both(.pass, .pass), .bubble(.pass), .both(.pass, .pass)], system: system)
        let outcome = await nodes[0].send(Ping())
        let hops = tracer.enteredHops(for: outcome.eventID)
        #expect(hops.map(\.number) == [1, 2, 3, 4, 5])
        #expect(hops.map(\.phase) == [.capture, .capture, .bubble, .bubble, .bubble])
        #expect(hops.map(\.responder.label) == ["n2", "n0", "n0", "n1", "n2"])
    }
}
