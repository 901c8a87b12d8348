/// What a handler decided about an event.
///
/// ```
///  .handled             stop here; the send ends `.handled`
///  .handledAndContinue  handled, and the event goes on to `next` (e.g. to a root sink)
///  .pass                not mine; the event goes on to `next`
/// ```
///
/// A responder with no handler for an event passes it.
public enum Disposition: Hashable, Sendable, CustomStringConvertible {
    /// Handled: the event stops at this responder.
    case handled
    /// Handled, and the event continues up the chain.
    case handledAndContinue
    /// Not handled here: the event continues up the chain.
    case pass

    /// Whether this disposition counts this responder as a handler.
    public var isHandled: Bool { self != .pass }

    /// `handled`, `handledAndContinue` or `pass`.
    public var description: String {
        switch self {
        case .handled: return "handled"
        case .handledAndContinue: return "handledAndContinue"
        case .pass: return "pass"
        }
    }
}
