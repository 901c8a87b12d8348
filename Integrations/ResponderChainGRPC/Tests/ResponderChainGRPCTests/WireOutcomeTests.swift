import ResponderChain
@testable import ResponderChainGRPC
import Testing

/// A responder to name in outcomes.
private actor Named: Responder {
    nonisolated let label: String
    var next: (any Responder)? { nil }
    init(_ label: String) { self.label = label }
}

@Suite("Outcomes on the wire: every detail crosses")
struct WireOutcomeTests {
    /// `outcome` written as the other process writes it, then read back here.
    private func roundTrip(_ outcome: Outcome) throws -> Outcome {
        // Through the wire format's bytes, as between two processes.
        let wire = try WireOutcome.read(WireOutcome(outcome, registry: RemoteRegistry()).protobufBytes())
        return try Outcome(
            wire, eventID: outcome.eventID, registry: RemoteRegistry(), responders: RemoteResponderDirectory()
        )
    }

    private let path = Outcome.Path(eventID: EventID(epoch: 0, sequence: 7), hops: 2, handlers: [])

    @Test(
        "every reason a rejection can have crosses by its stable name",
        arguments: [
            Outcome.Rejection.Reason.limitReached(maxOutstanding: 3), .posterCancelled, .shuttingDown,
            .forwardingLimitReached(limit: 64), .wouldDeadlock, .notStored("disk full: 28"), .unnamedSender,
            .duplicate(of: EventID(epoch: 0x5f1c, sequence: 42), outcome: nil),
            .duplicate(
                of: EventID(epoch: 0x5f1c, sequence: 42),
                outcome: EventSystem.StoredOutcome(kind: .handled, description: "handled by a|b at hop 2")),
        ])
    func rejectionReasons(reason: Outcome.Rejection.Reason) throws {
        let refuser = Named("refuser")
        let read = try roundTrip(
            .rejected(Outcome.Rejection(path: path, sender: ResponderID(refuser), reason: reason)))
        #expect(read.rejectedReason == reason)
        #expect(read.rejectedSenderLabel == "refuser")
    }

    @Test(
        "every reason a stop can have crosses by its stable name",
        arguments: [
            Outcome.Stop.Reason.taskCancelled, .ticketCancelled, .deadlinePassed, .shutdown, .withdrawn,
            .keptForNextStart,
        ])
    func stopReasons(reason: Outcome.Stop.Reason) throws {
        let stopper = Named("stopper")
        let read = try roundTrip(
            .cancelled(
                Outcome.Stop(
                    path: path, responder: ResponderID(stopper), hop: 1, whileHandling: false, reason: reason)
            ))
        #expect(read.stop?.reason == reason)
    }

    @Test(
        "the number of attempts crosses; absent, as from a peer that predates it, it reads as one; a number outside 1...UInt32.max is refused, typed",
        arguments: [1, 2, 10])
    func attemptsCross(attempts: Int) throws {
        let root = Named("root")
        let tried = Outcome.Path(
            eventID: EventID(epoch: 0, sequence: 7), hops: 1, handlers: [], attempts: attempts)
        let read = try roundTrip(.unhandled(Outcome.Unhandled(path: tried, root: ResponderID(root))))
        #expect(read.path.attempts == attempts)
        var wire = WireOutcome(
            .unhandled(Outcome.Unhandled(path: tried, root: ResponderID(root))), registry: RemoteRegistry())
        #expect(wire.attempts == (attempts > 1 ? attempts : nil))  // one attempt is not written
        wire.attempts = 0
        #expect(throws: RemoteLinkError.self) {
            try Outcome(
                wire, eventID: tried.eventID, registry: RemoteRegistry(),
                responders: RemoteResponderDirectory())
        }
    }

    @Test("a stop before a hop names the last responder that ran there; a stop during one names its own")
    func stopsNameTheLastHopThatRan() throws {
        let first = Named("first")
        let second = Named("second")
        let before = Outcome.cancelled(
            Outcome.Stop(
                path: path, responder: ResponderID(second), hop: 3, whileHandling: false,
                reason: .taskCancelled,
                lastReached: ResponderID(first)))
        let during = Outcome.timedOut(
            Outcome.Stop(
                path: path, responder: ResponderID(second), hop: 2, whileHandling: true,
                reason: .deadlinePassed))
        let none = Outcome.cancelled(
            Outcome.Stop(
                path: path, responder: ResponderID(first), hop: 1, whileHandling: false,
                reason: .ticketCancelled))

        #expect(try roundTrip(before).stop?.lastReached?.label == "first")
        #expect(try roundTrip(during).stop?.lastReached?.label == "second")
        #expect(try roundTrip(none).stop?.lastReached == nil)
    }

    @Test("a cycle says whether it closed through forwarding", arguments: [true, false])
    func forwardingLoops(isForwardingLoop: Bool) throws {
        let looped = Named("looped")
        let cycle = Outcome.cycleDetected(
            Outcome.Cycle(
                path: path, repeated: ResponderID(looped), closedBy: ResponderID(looped),
                isForwardingLoop: isForwardingLoop))
        guard case .cycleDetected(let read) = try roundTrip(cycle) else {
            Issue.record("not a cycle")
            return
        }
        #expect(read.isForwardingLoop == isForwardingLoop)
    }
}

extension Outcome {
    fileprivate var rejectedReason: Rejection.Reason? {
        if case .rejected(let rejection) = self { return rejection.reason }
        return nil
    }

    fileprivate var rejectedSenderLabel: String? {
        if case .rejected(let rejection) = self { return rejection.sender.label }
        return nil
    }

    fileprivate var stop: Stop? {
        switch self {
        case .cancelled(let stop), .timedOut(let stop): return stop
        default: return nil
        }
    }
}
