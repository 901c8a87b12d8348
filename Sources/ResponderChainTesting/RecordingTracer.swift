public import ResponderChain
/// A tracer that keeps every point event in memory, in the order they were reported, for tests
/// to assert on. (Precedent: swift-distributed-tracing's `InMemoryTracer`.)
///
/// ```swift
/// let tracer = RecordingTracer()
/// let outcome = await leaf.send(ItemAdded(sku: "A-1"), options: SendOptions(tracer: tracer))
///
/// let hops = tracer.hops(for: outcome.eventID)
/// #expect(hops.map(\.hop.responder) == [ResponderID(leaf), ResponderID(order)])
/// #expect(hops.map(\.disposition) == [.pass, .handled])
/// #expect(tracer.outcomes.map(\.kind) == [.handled])
/// print(tracer.lines(for: outcome.eventID).joined(separator: "\n"))
/// ```
public final class RecordingTracer: Tracer {
    private let log = TraceEventLog()

    /// An empty recorder.
    public init() {}

    /// Appends `event`.
    public func record(_ event: TraceEvent) {
        log.append(event)
    }

    /// Every point event so far, in the order they were reported.
    public var events: [TraceEvent] { log.events() }

    /// The point events of one send, in order.
    public func events(for eventID: EventID) -> [TraceEvent] {
        events.filter { $0.eventID == eventID }
    }

    /// The identifiers of the sends recorded so far, in the order they were sent.
    public var eventIDs: [EventID] {
        events.compactMap { event in
            if case .sent(let sent) = event { return sent.eventID }
            return nil
        }
    }

    /// The shape of one send's trace: each point event as a short word, in order — `sent`,
    /// `enter 1`, `leave 1`, …, `deadLettered`, `finished` — to assert on at a glance.
    ///
    /// ```swift
    /// #expect(tracer.shape(for: outcome.eventID) == ["sent", "enter 1", "leave 1", "finished"])
    /// ```
    public func shape(for eventID: EventID) -> [String] {
        Self.shape(of: events(for: eventID))
    }

    /// The shape of any point events, in the words of ``shape(for:)``: for events a test
    /// gathered itself (from several sends, or from its own tracer).
    ///
    /// ```swift
    /// #expect(RecordingTracer.shape(of: [.sent(sent)]) == ["sent"])
    /// ```
    public static func shape(of events: [TraceEvent]) -> [String] {
        events.map { event in
            switch event {
            case .sent: return "sent"
            case .hopEntered(let hop): return "enter \(hop.number)"
            case .hopLeft(let record): return "leave \(record.hop.number)"
            case .deadLettered: return "deadLettered"
            case .finished: return "finished"
            }
        }
    }

    /// What each hop of one send did, in hop order.
    public func hops(for eventID: EventID) -> [Hop.Record] {
        events(for: eventID).compactMap { event in
            if case .hopLeft(let record) = event { return record }
            return nil
        }
    }

    /// The hops one send entered, in order.
    public func enteredHops(for eventID: EventID) -> [Hop] {
        events(for: eventID).compactMap { event in
            if case .hopEntered(let hop) = event { return hop }
            return nil
        }
    }

    /// The outcome of every finished send, in the order they finished.
    public var outcomes: [Outcome] {
        events.compactMap { event in
            if case .finished(let outcome) = event { return outcome }
            return nil
        }
    }

    /// The outcomes given to a dead-letter sink, in order.
    public var deadLetters: [Outcome] {
        events.compactMap { event in
            if case .deadLettered(let outcome) = event { return outcome }
            return nil
        }
    }

    /// The trace of one send, rendered by `printer`.
    public func lines(for eventID: EventID, printer: PrintingTracer.Printer = PrintingTracer.Printer())
        -> [String]
    {
        printer.lines(for: events(for: eventID))
    }

    /// Forgets everything recorded so far (keeping the memory, for the events to come).
    public func reset() {
        log.removeAll()
    }
}
