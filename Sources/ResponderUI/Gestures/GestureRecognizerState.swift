extension GestureRecognizer {
    /// Where a recognizer is in its attempt to recognize a gesture.
    ///
    /// ```
    ///                 ┌──▶ recognized                      (discrete: a tap, a swipe)
    ///   possible ─────┼──▶ began ──▶ changed* ──┬──▶ ended  (continuous: a pan, a long press)
    ///      ▲          │                         └──▶ cancelled
    ///      │          └──▶ failed
    ///      └── reset, once every pointer of the attempt is up
    /// ```
    ///
    /// `recognized`, `ended`, `cancelled` and `failed` end an attempt (``isTerminal``); each
    /// attempt reaches exactly one of them (``GestureRecognizer/lastAttempt`` says which, and
    /// why).
    public enum State: String, Hashable, Sendable, CustomStringConvertible {
        /// Watching the input; nothing decided. The state between attempts too.
        case possible
        /// A continuous gesture started: the recognizer won its pointers.
        case began
        /// A continuous gesture moved on.
        case changed
        /// A continuous gesture finished.
        case ended
        /// A continuous gesture was cut short: its input was cancelled, or it was removed.
        case cancelled
        /// The input is not this recognizer's gesture, or another recognizer won it.
        case failed
        /// A discrete gesture happened.
        case recognized

        /// Whether the state ends an attempt.
        public var isTerminal: Bool {
            switch self {
            case .possible, .began, .changed: false
            case .ended, .cancelled, .failed, .recognized: true
            }
        }

        /// Whether the recognizer has won its gesture (it is under way or done).
        public var hasRecognized: Bool {
            switch self {
            case .began, .changed, .ended, .recognized: true
            case .possible, .cancelled, .failed: false
            }
        }

        /// The state's name.
        public var description: String { rawValue }
    }
}
