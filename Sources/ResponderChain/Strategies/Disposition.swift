/// What a handler decided about an event.
///
/// ```
///  .handled             stop here; the send ends `.handled`
///  .handledAndContinue  handled, and the event goes on to `next` (e.g. to a root sink)
///  .pass                not mine, or only decorated (`context.info`): the event goes on to
///                       `next`, with what this hop added, and this hop is no handler
///  .forwarded(outcome)  carried on in another chain, which ended with `outcome`;
///                       the send ends with it, continued from this hop
/// ```
///
/// A responder with no handler for an event passes it.
///
/// **Forwarding.** A responder that links this chain to another one (a remote link, a bridge to
/// a chain in another ``EventSystem``) hands the event over, waits for the other chain's
/// outcome and returns it as `.forwarded(outcome)`. The send then ends there, with one outcome
/// for the whole path:
///
/// - its kind is the other chain's (handled, unhandled, interrupted, cycle, cancelled, timed
///   out, failed, rejected), and so is the responder it names;
/// - ``Outcome/hops`` counts this chain's hops, the forwarding hop included, then the other
///   chain's; a stop's or a failure's hop number is counted the same way;
/// - ``Outcome/handlers`` lists this chain's handlers, then the other chain's;
/// - ``Outcome/info`` is this chain's information overlaid with the other chain's (its values
///   win where both have a key);
/// - ``Outcome/eventID``, ``Outcome/Path/captureHops`` and ``Outcome/Path/captureHandlers`` are
///   this chain's.
///
/// ```swift
/// actor Bridge: Responder {
///     let backend: Relay   // the entry of a chain in another system
///     var next: (any Responder)? { nil }
///     static let strategies = Strategies<Bridge> {
///         $0.onAnyEvent { bridge, event, context in
///             var options = SendOptions(info: context.info)
///             options.deadline = context.deadline
///             return .forwarded(await bridge.backend.send(event, options: options))
///         }
///     }
/// }
/// ```
///
/// The other chain's outcome is reported as it is, even when this send was stopped while the
/// handler waited for it: that chain ran to an end. A handler that gives up waiting throws
/// `CancellationError` instead, and the send ends cancelled or timed out at its hop. A forwarded
/// send knows the sends it was made from: forwarding back to a responder whose handler is still
/// forwarding the same event ends ``Outcome/cycleDetected(_:)`` (``Outcome/Cycle/isForwardingLoop``),
/// and forwarding nested deeper than ``EventSystem/forwardingLimit`` ends
/// ``Outcome/rejected(_:)``.
public enum Disposition: Sendable, CustomStringConvertible {
    /// Handled: the event stops at this responder.
    case handled
    /// Handled, and the event continues up the chain.
    case handledAndContinue
    /// Not handled here: the event continues up the chain, with any information this hop added
    /// to `context.info`. Return it from a hop that only decorates: adding information is not
    /// handling, so an event every hop passes ends ``Outcome/unhandled(_:)``.
    case pass
    /// Carried on in another chain, which ended with `outcome`: the send ends with that outcome,
    /// continued from this hop.
    indirect case forwarded(Outcome)

    /// Whether this disposition decides the event at this responder: anything but ``pass``.
    public var isHandled: Bool {
        if case .pass = self { return false }
        return true
    }

    /// The other chain's outcome of a ``forwarded(_:)`` disposition; `nil` otherwise.
    public var forwardedOutcome: Outcome? {
        if case .forwarded(let outcome) = self { return outcome }
        return nil
    }

    /// `handled`, `handledAndContinue`, `pass` or `forwarded: <outcome>`.
    public var description: String {
        switch self {
        case .handled: return "handled"
        case .handledAndContinue: return "handledAndContinue"
        case .pass: return "pass"
        case .forwarded(let outcome): return "forwarded: \(outcome)"
        }
    }
}

extension Disposition: Equatable {
    /// Whether both are the same decision; two ``forwarded(_:)`` dispositions are equal when
    /// they forward the same send's outcome (same ``Outcome/eventID``, kind and hop count).
    public static func == (lhs: Disposition, rhs: Disposition) -> Bool {
        switch (lhs, rhs) {
        case (.handled, .handled), (.handledAndContinue, .handledAndContinue), (.pass, .pass):
            return true
        case (.forwarded(let left), .forwarded(let right)):
            return left.eventID == right.eventID && left.kind == right.kind && left.hops == right.hops
        default:
            return false
        }
    }
}
