/// The rest of an event's way, travelled in another chain: thrown by a handler that carried the
/// event to that chain — in another event system, another process or another machine — to end
/// this send with one outcome for the whole path.
///
/// A responder that links a chain to another one (a remote link, a bridge between two systems)
/// has a handler that hands the event over, waits for the other chain's outcome, and throws it
/// wrapped in `Forwarded`. The send then ends there, and its outcome is the other chain's,
/// continued from this hop:
///
/// - its kind is the other chain's (handled, unhandled, interrupted, cycle, cancelled, timed out,
///   failed, rejected), and so is the responder it names (``Outcome/Handled/stoppedAt``, the
///   root, the responder of a stop or a failure);
/// - ``Outcome/hops`` counts this chain's hops, the forwarding hop included, then the other
///   chain's; a stop's or a failure's hop number is counted the same way;
/// - ``Outcome/handlers`` lists this chain's handlers, then the other chain's;
/// - ``Outcome/info`` is this chain's information overlaid with the other chain's (its values
///   win where both have a key): the other chain started from what this one had added.
///
/// ```swift
/// actor Bridge: Responder {
///     let backend: Relay   // the entry of a chain in another system
///     static let strategies = Strategies<Bridge> {
///         $0.onAnyEvent { bridge, event, context in
///             var options = SendOptions(info: context.info)
///             options.deadline = context.deadline
///             throw Forwarded(await bridge.backend.send(event, options: options))
///         }
///     }
/// }
/// ```
///
/// A forwarded send knows which sends it was made from (see ``EventSystem/forwardingLimit``):
/// an event forwarded back to a responder whose handler is still forwarding it ends
/// ``Outcome/cycleDetected(_:)`` there (``Outcome/Cycle/isForwardingLoop``), and forwarding
/// nested deeper than the system allows ends ``Outcome/rejected(_:)``; the forwarding handler
/// gets that outcome like any other.
///
/// The other chain's outcome is reported as it is, even when this send was stopped (cancelled,
/// or its deadline passed) while the handler waited for it: that chain ran to an end, and its
/// outcome says what happened there. A handler that gives up waiting instead throws
/// `CancellationError`, and the send ends cancelled or timed out at the forwarding hop, as for
/// any handler.
///
/// The outcome's ``Outcome/eventID`` is this send's: the other chain's correlation identifier is
/// not kept. Its ``Outcome/Path/captureHops`` and ``Outcome/Path/captureHandlers`` are this
/// chain's only: the other chain's capture pass (if it runs one) is among the hops after the
/// forwarding one. A ``HopWrapper`` that catches errors should let `Forwarded` through.
public struct Forwarded: Error, CustomStringConvertible {
    /// How the event's way ended in the other chain.
    public let outcome: Outcome

    /// The other chain's outcome of the event this hop handed over.
    public init(_ outcome: Outcome) {
        self.outcome = outcome
    }

    /// `forwarded: handled by OrderService after 2 hops`.
    public var description: String { "forwarded: \(outcome)" }
}
