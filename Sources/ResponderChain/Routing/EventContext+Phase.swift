extension EventContext {
    /// The two passes of one send: ancestors first, then the chain from the sender up.
    ///
    /// ```
    ///          capture ↓                      ↑ bubble
    ///   Window  (capture handlers, 1st)    Window  (handlers, 5th)
    ///   Screen  (capture handlers, 2nd)    Screen  (handlers, 4th)
    ///   Cell    (capture handlers, 3rd)    Cell    (handlers, 3rd hop of the bubble)
    ///   sender ────────────────────────▶   sender  (handlers, first of the bubble)
    /// ```
    ///
    /// Every send bubbles. A send also runs a capture pass first when its ``EventSystem`` runs one
    /// (``EventSystem/runsCapturePhase``): the responders from the top of the chain down to
    /// the first responder of the bubble that registered capture handlers see the event, topmost
    /// first. Handlers read the current phase in ``EventContext/phase``; handlers are registered
    /// for one phase (`on(_:phase:_:)`, bubbling by default).
    public enum Phase: Hashable, Sendable, CustomStringConvertible {
        /// Ancestors first, from the topmost responder that captures down to the first responder of
        /// the bubble (the sender, or its `next` for a send that starts there).
        case capture
        /// From the first responder up the live chain, as every send goes.
        case bubble

        /// How outcomes name a hop of this phase: `capture hop` or `hop`.
        var hopName: String { self == .capture ? "capture hop" : "hop" }

        /// `capture` or `bubble`.
        public var description: String {
            switch self {
            case .capture: return "capture"
            case .bubble: return "bubble"
            }
        }
    }
}
