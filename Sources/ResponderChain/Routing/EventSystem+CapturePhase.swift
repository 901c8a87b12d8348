extension EventSystem {
    /// Whether the sends of a system run a capture pass before they bubble (see ``EventPhase``).
    ///
    /// Capture costs a read of every `next` link up to the root before the first hop, so a
    /// system runs it only when asked:
    ///
    /// ```swift
    /// let ui = EventSystem(capturePhase: .enabled)
    /// ```
    ///
    /// A responder with capture handlers reached by a send of a system that does not run the
    /// pass ends that send ``Outcome/failed(_:)`` with a ``CapturePhaseDisabled`` error at its
    /// hop, before any of its handlers runs: a capture handler is never skipped silently.
    public enum CapturePhase: Hashable, Sendable {
        /// Sends only bubble (the default).
        case disabled
        /// Sends run the capture pass, then bubble.
        case enabled
    }
}

/// The error of a send that reached a responder with capture handlers through a system that
/// runs no capture pass (``EventSystem/CapturePhase/disabled``): the handlers that should have
/// seen the event first did not. Create the system with `capturePhase: .enabled`.
public struct CapturePhaseDisabled: Error, Hashable, Sendable, CustomStringConvertible {
    /// The responder whose capture handlers were not run.
    public let responder: ResponderID

    /// What went wrong, and what to do.
    public var description: String {
        "\(responder) has capture handlers, but its event system runs no capture phase; "
            + "create the system with capturePhase: .enabled"
    }
}
