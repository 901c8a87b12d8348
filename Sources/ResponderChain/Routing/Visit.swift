/// The result of one hop: the handlers' decision (or the error one threw) and the responder's
/// ``Responder/next`` as read when the event left it. Machinery, returned by
/// ``Responder/_visit(_:context:)``; nothing to build or read yourself.
public struct _Visit: Sendable {
    /// What the responder's handlers decided, or the error a handler threw.
    let result: Result<Disposition, any Error>
    /// The next responder, read after the handlers ran.
    let next: (any Responder)?

    @usableFromInline
    init(result: Result<Disposition, any Error>, next: (any Responder)?) {
        self.result = result
        self.next = next
    }
}

/// What a hop reports when the event was stopped before the hop began: it was cancelled, or timed
/// out, while it waited for a one-at-a-time responder. The system reports the stop *before* that
/// hop and does not count it.
struct HopNotEntered: Error {}

/// What a hop reports when the responder refused to let the event in because it would have
/// waited for itself (``Outcome/Rejection/Reason/wouldDeadlock``). The system reports a
/// rejection at that responder and does not count the hop.
struct HopRefused: Error {
    let reason: Outcome.Rejection.Reason
}
