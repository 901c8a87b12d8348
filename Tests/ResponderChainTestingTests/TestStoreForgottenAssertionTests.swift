import ResponderChain
import ResponderChainTesting
import Testing

/// Something a test did and forgot to assert, and the issues `finish()` must record for it.
enum ForgottenAssertion: CaseIterable, Sendable, CustomTestStringConvertible {
    case aDeadLetterOfAPost
    case aDeadLetterOfASendMadeAroundTheStore
    case theOutcomeOfAPostNobodyAwaited
    case aTimedOutSend
    case aTimedOutPost
    case aPostItsTicketCancelledInTheQueue
    case aSleepStillScheduled
    case theDeadlineOfASendStillUnderWay
    case postsStillQueued
    case aPosterWaitingForRoom
    case aShutdownReport
    case aShutdownWaitingForItsGracePeriod
    case aPostRefusedByTheShutdown
    case anElementOfAnOutcomeStream
    case anElementOfADeadLetterStream

    /// What was forgotten, in words.
    var testDescription: String {
        switch self {
        case .aDeadLetterOfAPost: "a dead letter of a post"
        case .aDeadLetterOfASendMadeAroundTheStore: "a dead letter of a send made around the store"
        case .theOutcomeOfAPostNobodyAwaited: "the outcome of a post nobody awaited"
        case .aTimedOutSend: "a timed-out send"
        case .aTimedOutPost: "a timed-out post"
        case .aPostItsTicketCancelledInTheQueue: "a post its ticket cancelled in the queue"
        case .aSleepStillScheduled: "a sleep still scheduled"
        case .theDeadlineOfASendStillUnderWay: "the deadline of a send still under way"
        case .postsStillQueued: "posts still queued"
        case .aPosterWaitingForRoom: "a poster waiting for room"
        case .aShutdownReport: "a shutdown report"
        case .aShutdownWaitingForItsGracePeriod: "a shutdown waiting for its grace period"
        case .aPostRefusedByTheShutdown: "a post refused by the shutdown"
        case .anElementOfAnOutcomeStream: "an element of an outcome stream"
        case .anElementOfADeadLetterStream: "an element of a dead-letter stream"
        }
    }

    /// The issues `finish()` records, as patterns (`*` for any text, such as an event identifier).
    var expected: [String] {
        switch self {
        case .aDeadLetterOfAPost:
            ["1 dead letter not asserted: PlaceOrder, failed at Pricing (PricingError.outOfStock)"]
        case .aDeadLetterOfASendMadeAroundTheStore:
            ["1 dead letter not asserted: PlaceOrder, unhandled at root Orders"]
        case .theOutcomeOfAPostNobodyAwaited: ["1 outcome not asserted: PlaceOrder, handled by Orders"]
        case .aTimedOutSend: ["1 outcome not asserted: PlaceOrder, timed out at Orders"]
        case .aTimedOutPost: ["1 dead letter not asserted: PlaceOrder, timed out at Orders"]
        case .aPostItsTicketCancelledInTheQueue:
            ["1 outcome not asserted: PlaceOrder, cancelled at Orders (ticket cancelled)"]
        case .aSleepStillScheduled: ["1 timer still scheduled: a sleep at 60.0 seconds"]
        case .theDeadlineOfASendStillUnderWay:
            ["1 timer still scheduled: the deadline of PlaceOrder (event #*) at 30.0 seconds"]
        case .postsStillQueued: ["2 posts still queued or being delivered"]
        case .aPosterWaitingForRoom:
            ["1 post still queued or being delivered", "1 poster still waiting for room"]
        case .aShutdownReport: ["1 shutdown report not asserted: 0 finished, 0 ended early, 0 refused"]
        case .aShutdownWaitingForItsGracePeriod:
            [
                "1 shutdown has not returned: its grace period of 5.0 seconds waits for the clock",
                "1 timer still scheduled: the shutdown's grace period at 5.0 seconds",
                "1 post still queued or being delivered",
            ]
        case .aPostRefusedByTheShutdown:
            ["1 dead letter not asserted: PlaceOrder, rejected at Orders (system shutting down)"]
        case .anElementOfAnOutcomeStream:
            [
                "1 observation element not read: outcome #* PlaceOrder from Orders: handled by Orders after 1 hop"
            ]
        case .anElementOfADeadLetterStream:
            ["1 observation element not read: dead letter PlaceOrder, unhandled at root Orders"]
        }
    }

    /// The posting limit of the store the case runs on.
    var postingLimit: EventSystem.PostingLimit {
        self == .aPosterWaitingForRoom ? EventSystem.PostingLimit(maxOutstanding: 1) : .default
    }

    /// A root `Orders` on the store's system that parks each event it is sent at `gate`, which
    /// starts closed.
    private static func parkedOrders(on store: TestStore) -> (gate: Gate, orders: Probe) {
        let gate = Gate()
        return (gate, Probe("Orders", .park(gate), root: true, system: store.system))
    }

    /// Does the forgotten thing on the store's system; returns what ends it after `finish()`.
    func forget(on store: TestStore) async -> @Sendable () async -> Void {
        let nothing: @Sendable () async -> Void = {}
        switch self {
        case .aDeadLetterOfAPost:
            let pricing = Probe("Pricing", .fail(PricingError.outOfStock), system: store.system)
            _ = await pricing.post(PlaceOrder()).outcome
            return nothing
        case .aDeadLetterOfASendMadeAroundTheStore:
            await Probe("Orders", .pass, root: true, system: store.system).send(PlaceOrder())
            return nothing
        case .theOutcomeOfAPostNobodyAwaited:
            let orders = Probe("Orders", .handle, root: true, system: store.system)
            let ticket = await orders.post(PlaceOrder())
            await store.waitUntilEnded(ticket)
            return nothing
        case .aTimedOutSend:
            let orders = Probe("Orders", sleeping: .seconds(60), on: store)
            let sending = Task {
                await orders.send(PlaceOrder(), options: SendOptions(timeout: .seconds(30)))
            }
            await store.waitForTimers(1)
            await store.advance(by: .seconds(30))
            _ = await sending.value
            return nothing
        case .aTimedOutPost:
            let orders = Probe("Orders", sleeping: .seconds(60), on: store)
            await orders.post(PlaceOrder(), options: SendOptions(timeout: .seconds(30)))
            await store.waitForTimers(2)
            await store.advance(by: .seconds(30))
            return nothing
        case .aPostItsTicketCancelledInTheQueue:
            let (gate, orders) = Self.parkedOrders(on: store)
            let first = await orders.post(PlaceOrder())
            let second = await orders.post(PlaceOrder())
            second.cancel()
            try? await gate.waitForArrivals(1)
            gate.open()
            await store.receiveOutcome(of: first)
            return nothing
        case .aSleepStillScheduled:
            let sleeper = Task { [clock = store.clock] in try await clock.sleep(for: .seconds(60)) }
            await store.waitForTimers(1)
            return { sleeper.cancel() }
        case .theDeadlineOfASendStillUnderWay:
            let (gate, orders) = Self.parkedOrders(on: store)
            let sending = Task {
                await orders.send(PlaceOrder(), options: SendOptions(timeout: .seconds(30)))
            }
            try? await gate.waitForArrivals(1)
            return {
                gate.open()
                _ = await sending.value
            }
        case .postsStillQueued:
            let (gate, orders) = Self.parkedOrders(on: store)
            let tickets = [await orders.post(PlaceOrder()), await orders.post(PlaceOrder())]
            try? await gate.waitForArrivals(1)
            return {
                gate.open()
                for ticket in tickets { _ = await ticket.outcome }
            }
        case .aPosterWaitingForRoom:
            let (gate, orders) = Self.parkedOrders(on: store)
            let first = await orders.post(PlaceOrder())
            let poster = Task { await orders.post(PlaceOrder()) }
            try? await waitUntil("the poster waits for room") { store.system.suspendedPosters == 1 }
            return {
                gate.open()
                _ = await first.outcome
                _ = await poster.value.outcome
            }
        case .aShutdownReport:
            await store.shutDown(gracePeriod: .seconds(5))
            return nothing
        case .aShutdownWaitingForItsGracePeriod:
            let (gate, orders) = Self.parkedOrders(on: store)
            let ticket = await orders.post(PlaceOrder())
            try? await gate.waitForArrivals(1)
            await store.shutDown(gracePeriod: .seconds(5))
            return {
                await store.clock.advance(by: .seconds(5))
                _ = await ticket.outcome
            }
        case .aPostRefusedByTheShutdown:
            let (gate, orders) = Self.parkedOrders(on: store)
            let draining = await orders.post(PlaceOrder())
            try? await gate.waitForArrivals(1)
            await store.shutDown(gracePeriod: .seconds(5))
            _ = await orders.post(PlaceOrder()).outcome
            gate.open()
            await store.receiveOutcome(of: draining)
            await store.receiveShutdownReport(
                EventSystem.ShutdownReport(finished: 1, endedEarly: 0, refused: 1))
            return nothing
        case .anElementOfAnOutcomeStream:
            let outcomes = store.observeOutcomes()
            await store.send(PlaceOrder(), from: Probe("Orders", .handle, root: true, system: store.system))
            return { _ = outcomes }
        case .anElementOfADeadLetterStream:
            let deadLetters = store.observeDeadLetters()
            await store.send(PlaceOrder(), from: Probe("Orders", .pass, root: true, system: store.system))
            return { _ = deadLetters }
        }
    }
}

@Suite("Test store: forgotten assertions", .timeLimit(.minutes(1)))
struct TestStoreForgottenAssertionTests {
    @Test(
        "finish catches each kind of forgotten assertion among asserted noise, and names it",
        arguments: ForgottenAssertion.allCases)
    func catchesAndNames(_ forgotten: ForgottenAssertion) async {
        let store = TestStore(postingLimit: forgotten.postingLimit)
        let seed = UInt64(ForgottenAssertion.allCases.firstIndex(of: forgotten)!) &+ 0x5EED
        var random = SplitMix64(seed: seed)
        await assertedNoise(on: store, using: &random)
        let cleanUp = await forgotten.forget(on: store)
        let log = IssueLog()

        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            log.keep(issue)
        }

        #expect(
            issues(log.recorded, match: forgotten.expected),
            "expected \(forgotten.expected), recorded \(log.recorded)")
        await cleanUp()
    }

    @Test(
        "with exhaustivity off, finish records nothing for what was forgotten",
        arguments: ForgottenAssertion.allCases)
    func exhaustivityOff(_ forgotten: ForgottenAssertion) async {
        let store = TestStore(exhaustivity: .off, postingLimit: forgotten.postingLimit)
        let cleanUp = await forgotten.forget(on: store)

        await store.finish()

        await cleanUp()
    }

    /// Sends and posts that the test asserts, a seeded number of them, so that the forgotten one
    /// is caught among others.
    private func assertedNoise(on store: TestStore, using random: inout SplitMix64) async {
        let orders = Probe("Orders", .handle, root: true, system: store.system)
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            if Bool.random(using: &random) {
                #expect(await store.send(PlaceOrder(), from: orders).isHandled)
            } else {
                let ticket = await orders.post(PlaceOrder())
                #expect(await store.receiveOutcome(of: ticket)?.isHandled == true)
            }
        }
    }
}

extension ScriptedResponder {
    /// A root whose handler sleeps on the store's clock for `duration`, then handles the event.
    init(_ label: String, sleeping duration: Duration, on store: TestStore) {
        let clock = store.clock
        self.init(
            label, Script([.perform { _, _ in try await clock.sleep(for: duration) }]), root: true,
            system: store.system)
    }
}

extension TestStore {
    /// Returns once the post of `ticket` has ended, without asserting its outcome.
    func waitUntilEnded(_ ticket: Ticket) async {
        try? await waitUntil("the post has ended", observing: system) { ticket.finishedOutcome != nil }
    }
}
