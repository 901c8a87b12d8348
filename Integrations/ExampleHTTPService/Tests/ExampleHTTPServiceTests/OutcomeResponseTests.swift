import ExampleHTTPService
import Hummingbird
import ResponderChain
import Testing

/// The outcome → HTTP status table of `OutcomeResponse.forOutcome`, one case per outcome kind and
/// reason.
@Suite struct OutcomeResponseTests {
    struct BadThing: Error {}
    final class Witness: Sendable {}

    static let responder = ResponderID(objectID: ObjectIdentifier(Witness.self), label: "OrderBook")
    static let path = Outcome.Path(eventID: EventID(epoch: 0, sequence: 7), hops: 1, handlers: [])
    static let firstPost = EventID()

    static func stop(_ reason: Outcome.Stop.Reason) -> Outcome.Stop {
        Outcome.Stop(path: path, responder: responder, hop: 1, whileHandling: true, reason: reason)
    }

    static func rejection(_ reason: Outcome.Rejection.Reason) -> Outcome {
        .rejected(Outcome.Rejection(path: path, sender: responder, reason: reason))
    }

    /// One outcome of each kind and reason, with the answer the table gives it.
    static let table: [(Outcome, OutcomeResponse)] = [
        (.handled(Outcome.Handled(path: path, stoppedAt: responder)), OutcomeResponse(status: .created)),
        (
            .unhandled(Outcome.Unhandled(path: path, root: responder)),
            OutcomeResponse(status: .unprocessableContent, error: "unhandled")
        ),
        (
            rejection(.shuttingDown),
            OutcomeResponse(
                status: .serviceUnavailable, retryAfter: 5, error: "rejected: system shutting down")
        ),
        (
            rejection(.limitReached(maxOutstanding: 8)),
            OutcomeResponse(
                status: .serviceUnavailable, retryAfter: 5, error: "rejected: posting limit of 8 reached")
        ),
        (
            rejection(.posterCancelled),
            OutcomeResponse(
                status: .serviceUnavailable, retryAfter: 5,
                error: "rejected: poster cancelled while waiting for room")
        ),
        (
            rejection(.forwardingLimitReached(limit: 64)),
            OutcomeResponse(status: .internalServerError, error: "rejected: forwarding limit of 64 reached")
        ),
        (
            rejection(.wouldDeadlock),
            OutcomeResponse(status: .internalServerError, error: "rejected: would wait for itself")
        ),
        (
            rejection(.unnamedSender),
            OutcomeResponse(
                status: .internalServerError, error: "rejected: sender has no name to store the post under")
        ),
        (
            rejection(.notStored("disk I/O error at /var/lib/orders.sqlite")),
            OutcomeResponse(status: .serviceUnavailable, retryAfter: 5, error: "rejected: not stored")
        ),
        (
            rejection(.duplicate(of: firstPost, outcome: nil)),
            OutcomeResponse(status: .conflict, error: "rejected: duplicate of \(firstPost)")
        ),
        (.timedOut(stop(.deadlinePassed)), OutcomeResponse(status: .gatewayTimeout, error: "timed out")),
        (
            .cancelled(stop(.taskCancelled)),
            OutcomeResponse(status: OutcomeResponse.clientClosedRequest, error: "cancelled: task cancelled")
        ),
        (
            .cancelled(stop(.keptForNextStart)),
            OutcomeResponse(status: .accepted, error: "cancelled: kept for the next start")
        ),
        (
            .cancelled(stop(.ticketCancelled)),
            OutcomeResponse(status: OutcomeResponse.clientClosedRequest, error: "cancelled: ticket cancelled")
        ),
        (
            .cancelled(stop(.withdrawn)),
            OutcomeResponse(status: OutcomeResponse.clientClosedRequest, error: "cancelled: withdrawn")
        ),
        (
            .cancelled(stop(.shutdown)),
            OutcomeResponse(status: .serviceUnavailable, retryAfter: 5, error: "cancelled: shutdown")
        ),
        (
            .interrupted(Outcome.Interruption(path: path, lastReached: responder)),
            OutcomeResponse(status: .badGateway, error: "interrupted")
        ),
        (
            .failed(Outcome.Failure(path: path, error: BadThing(), responder: responder, hop: 1)),
            OutcomeResponse(status: .internalServerError, error: "failed: BadThing")
        ),
        (
            .cycleDetected(Outcome.Cycle(path: path, repeated: responder, closedBy: responder)),
            OutcomeResponse(status: .internalServerError, error: "cycle detected")
        ),
    ]

    @Test("every outcome kind has a row", arguments: Outcome.Kind.allCases)
    func everyKindIsInTheTable(kind: Outcome.Kind) {
        #expect(Self.table.contains { $0.0.kind == kind })
    }

    @Test("the answer to each outcome", arguments: table)
    func answer(outcome: Outcome, expected: OutcomeResponse) {
        #expect(OutcomeResponse.forOutcome(outcome, handled: .created, retryAfter: 5) == expected)
    }

    @Test func handledIs200UnlessTheRouteCreates() {
        let handled = Outcome.handled(Outcome.Handled(path: Self.path, stoppedAt: Self.responder))
        #expect(OutcomeResponse.forOutcome(handled).status == .ok)
        #expect(OutcomeResponse.forOutcome(handled).retryAfter == nil)
    }

    @Test func aFailureNamesTheErrorTypeButNotItsMessage() {
        struct Leaky: Error, CustomStringConvertible { var description: String { "password=hunter2" } }
        let failed = Outcome.failed(
            Outcome.Failure(path: Self.path, error: Leaky(), responder: Self.responder, hop: 1))
        let answer = OutcomeResponse.forOutcome(failed)
        #expect(answer.error == "failed: Leaky")
        #expect(answer.error?.contains("hunter2") == false)
    }
}
