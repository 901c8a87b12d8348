extension EventSystem {
    /// Which ``EventSystem/RetryPolicy`` a system's posts follow: one per responder, one per event
    /// type, and a standard one for the rest.
    ///
    /// When an attempt at delivering a post ends in an outcome that may be retried, the policy is
    /// looked up in this order, the first found deciding:
    ///
    /// 1. the post's own (``SendOptions/retryPolicy``);
    /// 2. the policy of the responder the attempt ended at (the handler that threw, the responder
    ///    whose deadline passed, the last one the broken chain reached): it knows its failures
    ///    best;
    /// 3. the policy of the event's type (or, for a ``NamedEvent``, of its name);
    /// 4. ``standard``.
    ///
    /// With none (the default), a post is tried once, as it always was. An awaited send is
    /// retried only when its own options carry a policy: its sender is waiting, and decides.
    ///
    /// Retries keep strict order: a post waiting to be tried again holds its place at the head
    /// of its lane (its ordering key, or its sender's posts), and the posts behind it wait until
    /// it succeeds or has no attempt left. Order is what an ordering key promises; a post that
    /// passed a failing one would act on a state the failing one never made.
    ///
    /// ```swift
    /// var policies = EventSystem.RetryPolicies(standard: .default)
    /// policies[OrderPlaced.self] = EventSystem.RetryPolicy(maximumAttempts: 20)
    /// policies[responder: ResponderID(paymentsDesk)] = EventSystem.RetryPolicy(retrying: [.failed])
    /// let system = EventSystem(retryPolicies: policies)
    /// ```
    public struct RetryPolicies: Sendable {
        /// The policy of every post no other policy names; `nil` for no retries.
        public var standard: RetryPolicy?
        private var byEvent: [EventKey: RetryPolicy] = [:]
        private var byResponder: [ResponderID: RetryPolicy] = [:]

        /// Policies with `standard` for the posts no other policy names.
        public init(standard: RetryPolicy? = nil) {
            self.standard = standard
        }

        /// No retries: every post is tried once.
        public static var none: RetryPolicies { RetryPolicies() }

        /// Whether no post is ever retried by these policies.
        var retriesNothing: Bool { standard == nil && byEvent.isEmpty && byResponder.isEmpty }

        /// The policy of events of type `event`.
        public subscript<E: Event>(event: E.Type) -> RetryPolicy? {
            get { byEvent[.type(ObjectIdentifier(event))] }
            set { byEvent[.type(ObjectIdentifier(event))] = newValue }
        }

        /// The policy of the named events called `name`.
        public subscript(name: NamedEvent.Name) -> RetryPolicy? {
            get { byEvent[.name(name)] }
            set { byEvent[.name(name)] = newValue }
        }

        /// The policy of attempts that end at the responder `responder`.
        public subscript(responder responder: ResponderID) -> RetryPolicy? {
            get { byResponder[responder] }
            set { byResponder[responder] = newValue }
        }

        /// The policy for an attempt at `event` that ended with `outcome`, by the order above
        /// (the post's own policy aside).
        func policy(for event: any Event, endedWith outcome: Outcome) -> RetryPolicy? {
            if !byResponder.isEmpty, let responder = outcome.endedAt, let policy = byResponder[responder] {
                return policy
            }
            if !byEvent.isEmpty, let policy = byEvent[EventKey(of: event)] {
                return policy
            }
            return standard
        }
    }
}

extension Outcome {
    /// The responder an outcome that may be retried ended at: the handler's that threw, the one
    /// where the deadline passed, the last one a broken chain reached.
    fileprivate var endedAt: ResponderID? {
        switch self {
        case .failed(let failure): failure.responder
        case .timedOut(let stop): stop.responder
        case .interrupted(let interruption): interruption.lastReached
        case .handled, .unhandled, .cycleDetected, .cancelled, .rejected: nil
        }
    }
}
