/// An entry point for events from objects that are not responders: a network monitor, a timer,
/// a background job.
///
/// The relay names the on-chain responder where such events begin; they then travel up the
/// chain like any other, with the relay's label as their ``EventSource``. The relay holds its
/// entry weakly: once the entry is gone, sends end ``Outcome/interrupted(_:)``, naming the relay.
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

    /// A relay that injects events at `entry`.
    public init(entry: any Responder, label: String) {
        self.label = label
        self.reference = WeakResponder(entry)
    }

    /// Sends `event` up the chain, starting at the entry responder.
    @discardableResult
    public nonisolated(nonsending) func send(_ event: some Event, options: SendOptions = .default)
        async -> Outcome
    {
        guard let entry else {
            return .interrupted(
                Outcome.Interruption(
                    path: Outcome.Path(eventID: EventID.next(), hops: 0, handlers: [], info: EventInfo()),
                    lastReached: ResponderID(objectID: ObjectIdentifier(self), label: description)))
        }
        var options = options
        options.start = .atSender
        return await Router.send(event, from: entry, source: .relay(label: label), options: options)
    }

    /// Posts `event` at the entry responder without waiting, and returns its ticket. The relay is
    /// one sender: its posts are delivered in post order (see ``Responder/post(_:options:)``).
    /// Once the entry is gone, the ticket's outcome is ``Outcome/interrupted(_:)``, naming the
    /// relay.
    @discardableResult
    public nonisolated(nonsending) func post(_ event: some Event, options: SendOptions = .default) async
        -> Ticket
    {
        var options = options
        options.start = .atSender
        return await PostOffice.post(
            event, entry: entry ?? RelayStandIn(relay: self), source: .relay(label: label),
            lane: ObjectIdentifier(self), options: options, isolation: #isolation)
    }

    /// `relay(PaymentWebhook)`.
    public var description: String { "relay(\(label))" }
}

/// Where a relay's posts start once its entry is gone: a responder that is not a root and has no
/// `next`, labelled like the relay, so that the post ends ``Outcome/interrupted(_:)`` naming it.
private final class RelayStandIn: Responder {
    let relayLabel: String
    init(relay: Relay) { self.relayLabel = relay.description }
    var next: (any Responder)? { nil }
    nonisolated var label: String { relayLabel }
    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext) async throws
        -> Disposition
    { .pass }
    nonisolated(nonsending) func visit(_ event: any Event, context: inout EventContext) async -> Visit {
        Visit(result: .success(.pass), next: nil)
    }
}

/// A weak reference to a responder that can be shared between tasks.
final class WeakResponder: Sendable {
    weak let responder: (any Responder)?

    init(_ responder: any Responder) {
        self.responder = responder
    }
}
