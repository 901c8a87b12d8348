import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Outcome details")
struct OutcomeDetailsTests {
    static let kinds: [Outcome.Kind] = [
        .handled, .unhandled, .interrupted, .cycleDetected, .cancelled, .timedOut, .failed,
    ]

    @Test("each accessor returns the details of its own case and nil for every other", arguments: kinds)
    func accessorMatchesItsCase(_ kind: Outcome.Kind) async throws {
        let outcome = try #require(await OutcomeMaker.outcome(of: kind))
        #expect(outcome.kind == kind)

        let present: [Outcome.Kind: Bool] = [
            .handled: outcome.handledDetails != nil,
            .unhandled: outcome.unhandledDetails != nil,
            .interrupted: outcome.interruptedDetails != nil,
            .cycleDetected: outcome.cycleDetectedDetails != nil,
            .cancelled: outcome.cancelledDetails != nil,
            .timedOut: outcome.timedOutDetails != nil,
            .failed: outcome.failedDetails != nil,
        ]
        #expect(present.filter(\.value).map(\.key) == [kind])
    }

    @Test("the details read without casts")
    func detailsReadWithoutCasts() async throws {
        let root = Probe("root", .handle, root: true)
        let leaf = Probe("leaf", .pass, parent: root)

        let handled = try #require(await leaf.send(Signal()).handledDetails)
        let failed = try #require(await Probe("thrower", .fail).send(Signal()).failedDetails)

        #expect(handled.stoppedAt == ResponderID(root))
        #expect(handled.hops == 2)
        #expect(failed.responder.label == "thrower")
    }

    @Test("failedError returns the error of a failure only when it has the asked type")
    func failedErrorByType() async throws {
        let outcome = await Probe("thrower", .fail).send(Signal())

        #expect(outcome.failedError(as: Failure.self) == Failure())
        #expect(outcome.failedError(as: ResponderChainError.self) == nil)
        #expect(await Probe("leaf", .handle).send(Signal()).failedError(as: Failure.self) == nil)
    }
}
