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
