/// An entry point for events from objects that are not responders: a network monitor, a timer,
/// a background job.
///
/// The relay names the on-chain responder where such events begin; they then travel up the
/// chain like any other, with the relay's label as their ``EventSource``, through the entry's
/// ``Responder/eventSystem``. The relay holds its entry weakly: once the entry is gone, sends end
/// ``Outcome/interrupted(_:)``, naming the relay, and still reach a dead-letter sink and a tracer:
/// the send's own, or those of the relay's `system` (the process-wide one unless you name one).
///
/// ```swift
/// let relay = Relay(entry: session, label: "PaymentWebhook")
/// await relay.send(PaymentConfirmed(orderID: 7))
/// ```
public final class Relay: Sendable, CustomStringConvertible {
    /// The name of the producer, used as the events' source.
    public let label: String
    /// The responder where relayed events begin; `nil` once it has been deallocated.
    public var entry: (any Responder)? { reference.responder }

    private let reference: WeakResponder
    /// The system that reports sends made after the entry is gone; `nil` for the process-wide one.
    private let system: EventSystem?

    /// A relay that injects events at `entry`.
    ///
    /// - Parameters:
    ///   - entry: Where relayed events begin; held weakly.
    ///   - label: The producer's name, the events' source.
    ///   - system: The system that accounts for events relayed after `entry` is gone (pass the
    ///     entry's chain's system); `nil` for ``EventSystem/default``. While the entry lives, its
    ///     own system is used.
    public init(entry: any Responder, label: String, system: EventSystem? = nil) {
        self.label = label
        self.reference = WeakResponder(entry)
        self.system = system
    }

    /// The system of events relayed after the entry is gone.
    private var orphanSystem: EventSystem { system ?? .default }

    /// Sends `event` up the chain, starting at the entry responder.
    @discardableResult
    public nonisolated(nonsending) func send(_ event: some Event, options: SendOptions = .default)
        async -> Outcome
    {
        guard let entry else {
            return await reportMissingEntry(event, options: options)
        }
        var options = options
        options.start = .atSender
        return await Router.send(event, from: entry, source: .relay(label: label), options: options)
    }

    /// Posts `event` at the entry responder without waiting, and returns its ticket. The relay is
    /// one sender: its posts are delivered in post order (see
    /// ``Responder/post(_:key:idempotencyKey:options:)``, whose `key` and `idempotencyKey` mean the
    /// same here). Once the entry is gone, the ticket's outcome is ``Outcome/interrupted(_:)``,
    /// naming the relay, exactly as for ``send(_:options:)``.
    @discardableResult
    public nonisolated(nonsending) func post(
        _ event: some Event, key: EventSystem.OrderingKey? = nil, idempotencyKey: String? = nil,
        options: SendOptions = .default
    ) async -> Ticket {
        let lane = LaneKey.sender(ObjectIdentifier(self))
        guard let entry else {
            let outcome = await reportMissingEntry(event, options: options)
            let ticket = TicketState(eventID: outcome.eventID, system: orphanSystem, lane: lane)
            ticket.finish(outcome)
            return Ticket(state: ticket)
        }
        var options = options
        options.start = .atSender
        return await PostOffice.post(
            event, entry: entry, source: .relay(label: label), lane: lane, key: key,
            idempotencyKey: idempotencyKey, options: options, isolation: #isolation)
    }

    /// Ends a send made after the entry was deallocated: interrupted at the relay, given to the
    /// dead-letter sink and the tracer like any other interrupted send.
    private nonisolated(nonsending) func reportMissingEntry(_ event: some Event, options: SendOptions)
        async -> Outcome
    {
        let source = EventSource.relay(label: label)
        let system = orphanSystem
        let capture = TraceCapture(event, from: source, system: system, options: options)
        let outcome = Outcome.interrupted(
            Outcome.Interruption(
                path: Outcome.Path(
                    eventID: capture.eventID, hops: 0, info: options.info),
                lastReached: ResponderID(objectID: ObjectIdentifier(self), label: description)))
        return await Router.endUndelivered(
            outcome, of: event, source: source, capture: capture,
            deadLetters: options.deadLetters ?? system.deadLetters)
    }

    /// `relay(PaymentWebhook)`.
    public var description: String { "relay(\(label))" }
}

/// A weak reference to a responder that can be shared between tasks.
final class WeakResponder: Sendable {
    weak let responder: (any Responder)?

    init(_ responder: any Responder) {
        self.responder = responder
    }
}
