import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Test store", .timeLimit(.minutes(1)))
struct TestStoreTests {
    @Test("a test that asserts everything the store recorded finishes without an issue")
    func everythingAsserted() async {
        let store = TestStore()
        let root = Probe("Orders", .handle, root: true, system: store.system)
        let pricing = Probe("Pricing", .fail(PricingError.outOfStock), system: store.system)

        let sent = await store.send(PlaceOrder(), from: root)
        #expect(sent.isHandled)
        await root.post(PlaceOrder())
        await store.receiveOutcome(.handled, of: PlaceOrder.self)
        await pricing.post(PlaceOrder())
        let letter = await store.receiveDeadLetter(.failed, of: PlaceOrder.self)
        #expect(letter?.outcome.failedError(as: PricingError.self) == .outOfStock)

        await store.finish()
    }

    @Test("a send's deadline runs in virtual time, and its outcome is received by a predicate")
    func deadlineInVirtualTime() async {
        let store = TestStore()
        let payment = Probe("Payment", sleeping: .seconds(60), on: store)
        let sending = Task {
            await payment.send(PlaceOrder(), options: SendOptions(timeout: .seconds(30)))
        }
        await store.waitForTimers(2)  // the send's deadline, and the handler's sleep

        await store.advance(by: .seconds(30))

        let timedOut = await store.receiveOutcome { $0.outcome.timedOutDetails?.responder.label == "Payment" }
        #expect(timedOut?.event is PlaceOrder)
        #expect(await sending.value.kind == .timedOut)
        #expect(store.clock.pendingTimerCount == 0)
        await store.finish()
    }

    @Test("a shutdown with posts in flight is asserted by its report and its dead letters")
    func shutdownWithPostsInFlight() async {
        let store = TestStore()
        let gate = Gate()
        let orders = Probe("Orders", .park(gate), root: true, system: store.system)
        await orders.post(PlaceOrder())
        await orders.post(PlaceOrder())
        try? await gate.waitForArrivals(1)

        await store.shutDown(gracePeriod: .seconds(5))
        await store.advance(by: .seconds(5))

        await store.receiveShutdownReport(EventSystem.ShutdownReport(finished: 0, endedEarly: 2, refused: 0))
        await store.receiveDeadLetter { $0.outcome.cancelledDetails?.reason == .shutdown }
        await store.receiveDeadLetter { $0.outcome.cancelledDetails?.reason == .shutdown }
        await store.finish()
    }

    @Test("a receive waits for an ending still to come, and is woken by it")
    func receiveWaitsForTheEnding() async {
        let store = TestStore()
        let gate = Gate()
        let orders = Probe("Orders", .park(gate), root: true, system: store.system)
        let ticket = await orders.post(PlaceOrder())
        try? await gate.waitForArrivals(1)

        let receiving = Task { await store.receiveOutcome(.handled, of: PlaceOrder.self) }
        gate.open()

        #expect(await receiving.value?.outcome.eventID == ticket.eventID)
        await store.finish()
    }

    @Test("a post whose ending was received no longer counts as outstanding")
    func receivedPostsAreSettled() async {
        let store = TestStore()
        let orders = Probe("Orders", .handle, root: true, system: store.system)
        let pricing = Probe("Pricing", .fail(PricingError.outOfStock), root: true, system: store.system)
        var stillOutstanding = 0
        for _ in 0..<200 {
            await orders.post(PlaceOrder())
            await store.receiveOutcome(.handled)
            stillOutstanding += store.system.outstandingPosts
            await pricing.post(PlaceOrder())
            await store.receiveDeadLetter(.failed)
            stillOutstanding += store.system.outstandingPosts
        }

        #expect(stillOutstanding == 0)
        await store.finish()
    }

    @Test("a receive that nothing matches records an issue at the caller, listing what is not asserted")
    func receiveThatTimesOut() async {
        let store = TestStore()
        await Probe("Orders", .pass, root: true, system: store.system).post(PlaceOrder())
        let log = IssueLog()
        let line = #line + 3

        await withKnownIssue {
            await store.receiveOutcome(.handled, within: .milliseconds(50))
        } matching: { issue in
            log.keep(issue) && issue.sourceLocation?.line == line
        }

        #expect(
            log.recorded == [
                "expected a handled outcome, none came within 0.05 seconds; not asserted: PlaceOrder, unhandled at root Orders"
            ])
        store.exhaustivity = .off
        await store.finish()
    }

    @Test("a report other than the one expected records an issue naming both")
    func wrongShutdownReport() async {
        let store = TestStore()
        await store.shutDown(gracePeriod: .seconds(5))
        let log = IssueLog()

        await withKnownIssue {
            await store.receiveShutdownReport(
                EventSystem.ShutdownReport(finished: 1, endedEarly: 0, refused: 0))
        } matching: { issue in
            log.keep(issue)
        }

        #expect(
            log.recorded == [
                "expected the shutdown report 1 finished, 0 ended early, 0 refused, got 0 finished, 0 ended early, 0 refused"
            ])
        await store.finish()
    }

    @Test("a send from a responder of another system records an issue")
    func sendFromAnotherSystem() async {
        let store = TestStore()
        let elsewhere = Probe("Elsewhere", .handle, root: true, system: EventSystem())
        let log = IssueLog()

        await withKnownIssue {
            await store.send(PlaceOrder(), from: elsewhere)
        } matching: { issue in
            log.keep(issue)
        }

        #expect(log.recorded.count == 1)
        #expect(log.recorded.first?.hasPrefix("PlaceOrder was sent from Elsewhere") == true)
        await store.finish()
    }

    @Test("finish runs the clock when asked, and what the timers ended is then checked")
    func finishRunningTheClock() async {
        let store = TestStore()
        let sleeper = Task { [clock = store.clock] in try await clock.sleep(for: .seconds(60)) }
        await store.waitForTimers(1)

        await store.finish(runningClock: true)

        #expect(store.clock.now == EventSystem.Instant(offset: .seconds(60)))
        #expect((try? await sleeper.value) != nil)
    }

    @Test("skipping the received outcomes asserts every ending recorded so far, and no later one")
    func skipReceivedOutcomes() async {
        let store = TestStore()
        let orders = Probe("Orders", .pass, root: true, system: store.system)
        await orders.send(PlaceOrder())
        await orders.post(PlaceOrder())
        await store.receiveDeadLetter(.unhandled)
        await store.receiveDeadLetter(.unhandled)

        await orders.send(PlaceOrder())
        await store.skipReceivedOutcomes()
        _ = await orders.post(PlaceOrder()).outcome
        let log = IssueLog()

        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            log.keep(issue)
        }

        #expect(log.recorded == ["1 dead letter not asserted: PlaceOrder, unhandled at root Orders"])
    }

    @Test("with skipped assertions shown, finish records them as known issues and the test passes")
    func showSkippedAssertions() async {
        let store = TestStore(exhaustivity: .off(showSkippedAssertions: true))
        await Probe("Orders", .handle, root: true, system: store.system).post(PlaceOrder())
        await store.receiveOutcome(.handled)
        await Probe("Orders", .pass, root: true, system: store.system).send(PlaceOrder())

        await store.finish()

        #expect(
            await store.trace.last
                == "finished: 1 dead letter not asserted: PlaceOrder, unhandled at root Orders")
    }
}
