/// The error a hop reports when a ``ScopingTracer/withHop(_:_:)`` broke its contract (call `body`
/// exactly once), so that the event is reported rather than lost. A plain ``Tracer`` runs no
/// scope, so it never causes one.
///
/// - ``Kind/handlerNotRun``: the scope returned or threw without calling `body`; the handlers
///   never ran and the send ends ``Outcome/failed(_:)`` with this error (unless the send was
///   cancelled or timed out meanwhile: then it ends that way).
/// - ``Kind/handlerRunAgain``: the scope called `body` a second time; that call throws this error
///   at the scope and the handlers do not run again. The hop keeps the first call's result.
public struct TracerViolation: Error, Sendable, CustomStringConvertible {
    /// What the scope did wrong.
    public enum Kind: Hashable, Sendable {
        /// The scope never called `body`.
        case handlerNotRun
        /// The scope called `body` more than once.
        case handlerRunAgain
    }

    /// What the scope did wrong.
    public let kind: Kind
    /// The hop whose scope did it.
    public let hop: Hop
    /// The tracer's type.
    public let tracer: String
    /// The error the scope threw instead of calling `body`, if any.
    public let underlying: (any Error)?

    /// A readable explanation.
    public var description: String {
        switch kind {
        case .handlerNotRun:
            let reason = underlying.map { " (it threw \($0))" } ?? ""
            return "tracer \(tracer) did not run the handlers of \(hop)\(reason)"
        case .handlerRunAgain:
            return "tracer \(tracer) ran the handlers of \(hop) a second time; refused"
        }
    }
}
