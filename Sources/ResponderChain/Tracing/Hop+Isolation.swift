extension Hop {
    /// Where a hop's handlers ran: the isolation the system observed (with `#isolation`) inside the
    /// hop, not what the responder's type declares.
    public enum Isolation: Hashable, Sendable, CustomStringConvertible {
        /// On the main actor (a ``MainActorResponder``).
        case mainActor
        /// On the responder itself: it is an actor and the hop ran on its executor.
        case responder
        /// On another actor, named by its type: a global actor such as `DatabaseActor`, or an actor
        /// the responder delegates its isolation to.
        case actor(String)
        /// On no actor: the responder's ``Responder/handle(_:context:)`` ran nonisolated.
        case nonisolated

        /// Classifies `isolation` as observed in a hop at `responder`.
        init(_ isolation: (any Actor)?, at responder: some Responder) {
            guard let isolation else {
                self = .nonisolated
                return
            }
            if isolation === MainActor.shared {
                self = .mainActor
            } else if isolation === responder {
                self = .responder
            } else {
                self = .actor(_typeName(type(of: isolation), qualified: false))
            }
        }

        /// `MainActor`, `actor`, the other actor's type name, or `nonisolated`.
        public var description: String {
            switch self {
            case .mainActor: return "MainActor"
            case .responder: return "actor"
            case .actor(let name): return name
            case .nonisolated: return "nonisolated"
            }
        }
    }
}
