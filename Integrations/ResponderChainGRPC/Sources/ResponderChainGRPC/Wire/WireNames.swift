import ResponderChain

// The stable names of the reasons an outcome carries, as the wire writes them. They are part of
// the wire format: never rename one.

extension Outcome.Stop.Reason {
    /// The reason's name on the wire.
    var wireName: String {
        switch self {
        case .taskCancelled: "taskCancelled"
        case .ticketCancelled: "ticketCancelled"
        case .deadlinePassed: "deadlinePassed"
        case .shutdown: "shutdown"
        case .withdrawn: "withdrawn"
        }
    }

    /// The reason named `wireName` on the wire.
    init?(wireName: String) {
        switch wireName {
        case "taskCancelled": self = .taskCancelled
        case "ticketCancelled": self = .ticketCancelled
        case "deadlinePassed": self = .deadlinePassed
        case "shutdown": self = .shutdown
        case "withdrawn": self = .withdrawn
        default: return nil
        }
    }
}

extension Outcome.Rejection.Reason {
    /// The reason's name on the wire, and its limit for `limitReached`.
    var wire: (name: String, limit: Int?) {
        switch self {
        case .limitReached(let limit): ("limitReached", limit)
        case .posterCancelled: ("posterCancelled", nil)
        case .shuttingDown: ("shuttingDown", nil)
        case .forwardingLimitReached(let limit): ("forwardingLimitReached", limit)
        case .wouldDeadlock: ("wouldDeadlock", nil)
        }
    }

    /// Whether the reason named `wireName` carries a limit (`limitReached`,
    /// `forwardingLimitReached`).
    static func needsLimit(wireName: String) -> Bool {
        wireName == "limitReached" || wireName == "forwardingLimitReached"
    }

    /// The reason named `wireName` on the wire.
    init?(wireName: String, limit: Int?) {
        switch (wireName, limit) {
        case ("limitReached", let limit?): self = .limitReached(maxOutstanding: limit)
        case ("posterCancelled", _): self = .posterCancelled
        case ("shuttingDown", _): self = .shuttingDown
        case ("forwardingLimitReached", let limit?): self = .forwardingLimitReached(limit: limit)
        case ("wouldDeadlock", _): self = .wouldDeadlock
        default: return nil
        }
    }
}

extension EventContext.Phase {
    /// The pass's name on the wire.
    var wireName: String {
        switch self {
        case .capture: "capture"
        case .bubble: "bubble"
        }
    }

    /// The pass named `wireName` on the wire; the bubble when no pass is named (proto3's
    /// default, an empty string), the pass every outcome without a capture pass belongs to.
    /// `nil` for a name that is not a pass's.
    init?(wireName: String) {
        switch wireName {
        case "capture": self = .capture
        case "bubble", "": self = .bubble
        default: return nil
        }
    }
}
