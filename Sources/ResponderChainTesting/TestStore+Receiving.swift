public import ResponderChain
public import Testing

extension TestStore {
    /// Asserts the next recorded outcome of kind `kind` (and of event type `eventType`, when
    /// given), waiting for it if it has not come yet, and returns it.
    ///
    /// ```swift
    /// await checkout.post(PlaceOrder(sku: "A-1"))
    /// await store.receiveOutcome(.handled, of: PlaceOrder.self)
    /// ```
    ///
    /// It takes the first outcome, in the order recorded, that matches and that no receive has
    /// taken; outcomes before it that do not match stay to be asserted. When none comes within
    /// `limit` (real time), it records an issue listing the outcomes not asserted, and returns
    /// `nil`.
    ///
    /// - Parameters:
    ///   - kind: The kind of outcome expected.
    ///   - eventType: The type of its event; any type when `nil`.
    ///   - limit: How long to wait at most; the store's ``waitLimit`` when `nil`.
    ///   - sourceLocation: Where an issue points; leave the default.
    @discardableResult
    public nonisolated(nonsending) func receiveOutcome(
        _ kind: Outcome.Kind,
        of eventType: (any Event.Type)? = nil,
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> EventSystem.FinishedSend? {
        await receiveOutcome(
            described: TestStore.expectation(kind, eventType), within: limit, sourceLocation: sourceLocation
        ) { $0.outcome.kind == kind && TestStore.matches($0.event, eventType) }
    }

    /// Asserts the next recorded outcome for which `predicate` holds, waiting for it if it has not
    /// come yet, and returns it.
    ///
    /// ```swift
    /// let timedOut = await store.receiveOutcome { $0.outcome.timedOutDetails?.responder.label == "Payment" }
    /// ```
    ///
    /// It takes the first outcome, in the order recorded, that matches and that no receive has
    /// taken. When none comes within `limit` (real time), it records an issue listing the
    /// outcomes not asserted, and returns `nil`.
    ///
    /// - Parameters:
    ///   - limit: How long to wait at most; the store's ``waitLimit`` when `nil`.
    ///   - sourceLocation: Where an issue points; leave the default.
    ///   - predicate: Whether a finished send is the one expected.
    @discardableResult
    public nonisolated(nonsending) func receiveOutcome(
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        matching predicate: (EventSystem.FinishedSend) -> Bool
    ) async -> EventSystem.FinishedSend? {
        await receiveOutcome(
            described: "an outcome the predicate accepts", within: limit, sourceLocation: sourceLocation,
            predicate)
    }

    /// Asserts the outcome of the post `ticket` stands for, waiting for it if it has not come yet,
    /// and returns it: check it with `#expect`.
    ///
    /// ```swift
    /// let ticket = await checkout.post(PlaceOrder(sku: "A-1"))
    /// let outcome = await store.receiveOutcome(of: ticket)
    /// #expect(outcome?.isHandled == true)
    /// ```
    ///
    /// When the post does not end within `limit` (real time), it records an issue and returns
    /// `nil`.
    @discardableResult
    public nonisolated(nonsending) func receiveOutcome(
        of ticket: Ticket,
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Outcome? {
        let recorder = recorder
        // Looked for in the records, not on the ticket: the outcome is published to the streams
        // before the ticket has it, so it is the recording that wakes this wait.
        let found: Outcome? = await waitForRecord(
            "the outcome of post \(ticket.eventID)", within: limit, sourceLocation: sourceLocation
        ) { _ in await recorder.takeOutcome(of: ticket.eventID) }
        if found != nil { await recorder.note("received the outcome of post \(ticket.eventID)") }
        return found
    }

    /// Asserts the next recorded dead letter of kind `kind` (and of event type `eventType`, when
    /// given), waiting for it if it has not come yet, and returns it.
    ///
    /// ```swift
    /// await checkout.post(PlaceOrder(sku: "sold-out"))
    /// await store.receiveDeadLetter(.failed, of: PlaceOrder.self)
    /// ```
    ///
    /// It takes the first dead letter, in the order recorded, that matches and that no receive
    /// has taken. When none comes within `limit` (real time), it records an issue and returns
    /// `nil`.
    ///
    /// - Parameters:
    ///   - kind: The kind of the letter's outcome.
    ///   - eventType: The type of its event; any type when `nil`.
    ///   - limit: How long to wait at most; the store's ``waitLimit`` when `nil`.
    ///   - sourceLocation: Where an issue points; leave the default.
    @discardableResult
    public nonisolated(nonsending) func receiveDeadLetter(
        _ kind: Outcome.Kind,
        of eventType: (any Event.Type)? = nil,
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> DeadLetter? {
        await receiveDeadLetter(
            described: TestStore.expectation(kind, eventType, noun: "dead letter"), within: limit,
            sourceLocation: sourceLocation
        ) { $0.outcome.kind == kind && TestStore.matches($0.event, eventType) }
    }

    /// Asserts the next recorded dead letter for which `predicate` holds, waiting for it if it has
    /// not come yet, and returns it.
    ///
    /// ```swift
    /// await store.receiveDeadLetter { $0.outcome.failedError(as: PricingError.self) == .outOfStock }
    /// ```
    ///
    /// - Parameters:
    ///   - limit: How long to wait at most; the store's ``waitLimit`` when `nil`.
    ///   - sourceLocation: Where an issue points; leave the default.
    ///   - predicate: Whether a dead letter is the one expected.
    @discardableResult
    public nonisolated(nonsending) func receiveDeadLetter(
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        matching predicate: (DeadLetter) -> Bool
    ) async -> DeadLetter? {
        await receiveDeadLetter(
            described: "a dead letter the predicate accepts", within: limit, sourceLocation: sourceLocation,
            predicate)
    }

    /// Asserts every outcome and dead letter recorded so far without checking them: what is left
    /// of a part of the test that is not its point.
    public nonisolated(nonsending) func skipReceivedOutcomes() async {
        let skipped = await recorder.assertAll()
        await recorder.note("skipped \(TestStoreNaming.count(skipped.count, "ending"))")
    }

    // MARK: - The one wait

    private nonisolated(nonsending) func receiveOutcome(
        described expectation: String,
        within limit: Duration?,
        sourceLocation: SourceLocation,
        _ predicate: (EventSystem.FinishedSend) -> Bool
    ) async -> EventSystem.FinishedSend? {
        let recorder = recorder
        let found = await waitForRecord(expectation, within: limit, sourceLocation: sourceLocation) {
            (_: Bool) async -> EventSystem.FinishedSend? in
            for candidate in await recorder.unreceivedOutcomes() where predicate(candidate.finished) {
                if await recorder.takeOutcome(at: candidate.position) { return candidate.finished }
            }
            return nil
        }
        if let found { await recorder.note("received outcome \(found.outcome.eventID)") }
        return found
    }

    private nonisolated(nonsending) func receiveDeadLetter(
        described expectation: String,
        within limit: Duration?,
        sourceLocation: SourceLocation,
        _ predicate: (DeadLetter) -> Bool
    ) async -> DeadLetter? {
        let recorder = recorder
        let found = await waitForRecord(expectation, within: limit, sourceLocation: sourceLocation) {
            (lastLook: Bool) async -> DeadLetter? in
            for candidate in await recorder.unreceivedDeadLetters(complete: !lastLook)
            where predicate(candidate.letter) {
                if await recorder.takeDeadLetter(at: candidate.position) { return candidate.letter }
            }
            return nil
        }
        if let found { await recorder.note("received dead letter \(found.outcome.eventID)") }
        return found
    }

    /// Looks for a record with `find`, again each time a send or post of the system ends, until
    /// it finds one or `limit` passes; then records an issue naming `expectation` and what is not
    /// asserted. Never sleeps: each ending wakes it.
    nonisolated(nonsending) func waitForRecord<Found>(
        _ expectation: String,
        within limit: Duration?,
        sourceLocation: SourceLocation,
        _ find: (_ lastLook: Bool) async -> Found?
    ) async -> Found? {
        let limit = limit ?? waitLimit
        // The quick way first: what is awaited has mostly come, or is a few steps of other tasks
        // away (a post being delivered). Looking again after yielding a few times spares the
        // signalled wait below, which starts two tasks, most of the time.
        var found: Found?
        for _ in 0..<Self.quickLooks {
            found = await find(false)
            if found != nil { break }
            await Task.yield()
        }
        if found == nil {
            // Opened before the next look, so that an ending between the look and the wait
            // wakes it.
            let endings = system.observeOutcomes(buffering: .keepingNewest(1))
            do {
                try await waitUntil(expectation, within: limit, on: endings) {
                    found = await find(false)
                    return found != nil
                }
            } catch {
                // The system may have shut down (its streams end): one last look.
                if found == nil { found = await find(true) }
            }
        }
        if found != nil { await settleEndings() }
        if found == nil {
            let left = await recorder.unasserted()
            let listing =
                left.isEmpty
                ? "nothing else was recorded"
                : "not asserted: "
                    + left.map { TestStoreNaming.name($0.event, $0.outcome) }.joined(separator: "; ")
            Issue.record(
                "expected \(expectation), none came within \(limit); \(listing)",
                sourceLocation: sourceLocation)
        }
        return found
    }

    /// Returns once no post whose ending the store recorded still counts as outstanding.
    ///
    /// A post's outcome reaches the streams (and so the store) just before its ticket takes it and
    /// the post stops counting in `EventSystem.outstandingPosts`: a test that has received it and
    /// then shuts down, or finishes, must not find it still outstanding. The wait polls (nothing
    /// reports the step), is bounded, and returns at once unless a post is in that step.
    nonisolated(nonsending) func settleEndings() async {
        let (system, ended) = (system, await recorder.endedIDs())
        guard ended.contains(where: system.isDelivering) else { return }
        try? await waitUntil("the posts that ended stop counting as outstanding", within: waitLimit) {
            !ended.contains(where: system.isDelivering)
        }
    }

    /// How many times a receive looks for its record, yielding in between, before it waits for
    /// a signal.
    static let quickLooks = 4

    static func matches(_ event: any Event, _ eventType: (any Event.Type)?) -> Bool {
        guard let eventType else { return true }
        return ObjectIdentifier(type(of: event)) == ObjectIdentifier(eventType)
    }

    static func expectation(_ kind: Outcome.Kind, _ eventType: (any Event.Type)?, noun: String = "outcome")
        -> String
    {
        let described = noun == "outcome" ? "\(kind) outcome" : "dead letter of kind \(kind)"
        let article = noun == "outcome" && "aeiou".contains(described.first!) ? "an" : "a"
        return "\(article) \(described)" + (eventType.map { " of \($0)" } ?? "")
    }
}
