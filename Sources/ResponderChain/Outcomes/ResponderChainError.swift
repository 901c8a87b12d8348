/// The library's one error type: what a hop reports, in an ``Outcome/failed(_:)`` outcome, when
/// the chain was set up in a way that cannot run the event as asked. Its ``code`` says which
/// mistake; ``message`` says what to change.
///
/// ```swift
/// if let error = outcome.failedDetails?.error as? ResponderChainError,
///     error.code == .payloadTypeMismatch
/// {
///     print(error)   // named event 'addToCart' carried a payload of type Int, but …
/// }
/// ```
///
/// Errors your handlers throw are reported as they are; this type is only for the library's own.
public struct ResponderChainError: Error, Sendable, CustomStringConvertible {
    /// Which mistake the error reports.
    public enum Code: Hashable, Sendable {
        /// A ``NamedEvent`` carried a payload of another type than the handler registered for
        /// its name expects.
        case payloadTypeMismatch
        /// A table's proxy (`proxy(_:)`) led back, through proxies, to a responder whose
        /// table is already being run at this hop; ``ResponderChainError/responder`` is the proxy
        /// reached again.
        case proxyCycle
        /// The event reached a responder with capture handlers through a system that runs no
        /// capture pass (create it with `runsCapturePhase: true`); ``ResponderChainError/responder``
        /// is that responder. Its handlers did not run.
        case capturePhaseDisabled
        /// A ``ScopingTracer``'s `withHop` returned or threw without calling `body`: the
        /// handlers never ran. ``ResponderChainError/cause`` is what the scope threw, if anything.
        case tracerSkippedHandlers
        /// A ``ScopingTracer``'s `withHop` called `body` a second time: that call throws this
        /// error at the scope, and the handlers do not run again.
        case tracerRanHandlersAgain
        /// A stored post could not be read back (its event's type was removed or changed since it
        /// was stored): ``ResponderChainError/cause`` is the
        /// ``EventSystem/StoredPost/Undecodable`` with its bytes. It was delivered to no one.
        case undecodableStoredPost
        /// A stored post names an entry no responder is registered under in this process
        /// (``EventSystem/register(_:as:)``). It was delivered to no one.
        case unknownEntry
        /// A responder registered for stored posts under one name was registered again under
        /// another (``EventSystem/register(_:as:)``): a stored post names its entry, so an entry
        /// keeps its name. ``ResponderChainError/responder`` is that responder.
        case entryRenamed
    }

    /// Which mistake: what code should match on (``message`` is for people).
    public let code: Code
    /// What happened and what to change, naming the types, events and tracers involved.
    public let message: String
    /// The responder the error is about, when there is one (see each ``Code``).
    public let responder: ResponderID?
    /// The error that led to this one, if any.
    public let cause: (any Error)?

    init(_ code: Code, _ message: String, responder: ResponderID? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.responder = responder
        self.cause = cause
    }

    /// The ``message``.
    public var description: String { message }
}

extension ResponderChainError {
    /// A named event's payload is not the `expected` type its handler takes.
    static func payloadTypeMismatch(name: NamedEvent.Name, expected: String, actual: String) -> Self {
        Self(
            .payloadTypeMismatch,
            "named event '\(name)' carried a payload of type \(actual), but its handler expects \(expected)")
    }

    /// The proxy `proxy` was reached a second time at one hop.
    static func proxyCycle(_ proxy: ResponderID) -> Self {
        Self(
            .proxyCycle, "proxy \(proxy.label) leads back to a table already running at this hop",
            responder: proxy)
    }

    /// `responder` has capture handlers, but its system runs no capture pass.
    static func capturePhaseDisabled(_ responder: ResponderID) -> Self {
        Self(
            .capturePhaseDisabled,
            "\(responder) has capture handlers, but its event system runs no capture phase; "
                + "create the system with runsCapturePhase: true",
            responder: responder)
    }

    /// The scope of `tracer` did not run the handlers of `hop`.
    static func tracerSkippedHandlers(hop: Hop, tracer: String, cause: (any Error)?) -> Self {
        let reason = cause.map { " (it threw \($0))" } ?? ""
        return Self(
            .tracerSkippedHandlers, "tracer \(tracer) did not run the handlers of \(hop)\(reason)",
            responder: hop.responder, cause: cause)
    }

    /// The scope of `tracer` called the handlers of `hop` a second time.
    static func tracerRanHandlersAgain(hop: Hop, tracer: String) -> Self {
        Self(
            .tracerRanHandlersAgain, "tracer \(tracer) ran the handlers of \(hop) a second time; refused",
            responder: hop.responder)
    }
}

extension ResponderChainError {
    /// `responder`, registered as `existing`, was registered again as `name`.
    static func entryRenamed(_ responder: ResponderID, from existing: String, to name: String) -> Self {
        Self(
            .entryRenamed,
            "\(responder) is registered for stored posts as '\(existing)'; it cannot also be '\(name)'",
            responder: responder)
    }
}

extension ResponderChainError {
    /// The stored post `id` names the entry `name`, which no responder is registered under.
    static func unknownEntry(_ name: String, of id: EventID) -> Self {
        Self(
            .unknownEntry,
            "stored post \(id) starts at '\(name)', but no responder is registered under that name "
                + "(EventSystem.register(_:as:)); it was not delivered")
    }

    /// The stored post `id` could not be read.
    static func undecodableStoredPost(_ undecodable: EventSystem.StoredPost.Undecodable, id: EventID) -> Self
    {
        Self(
            .undecodableStoredPost,
            "stored post \(id) could not be read: \(undecodable); it was not delivered",
            cause: undecodable)
    }
}
