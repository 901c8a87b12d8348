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
        case .keptForNextStart: "keptForNextStart"
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
        case "keptForNextStart": self = .keptForNextStart
        default: return nil
        }
    }
}

extension Outcome.Rejection.Reason {
    /// The reason's name on the wire, and its limit for `limitReached`. A store's reasons carry
    /// their details after the name: `notStored:<why>`, `duplicate:<full id>` (with
    /// `|<kind>|<description>` when the earlier post's outcome is known).
    var wire: (name: String, limit: Int?) {
        switch self {
        case .limitReached(let limit): ("limitReached", limit)
        case .posterCancelled: ("posterCancelled", nil)
        case .shuttingDown: ("shuttingDown", nil)
        case .forwardingLimitReached(let limit): ("forwardingLimitReached", limit)
        case .wouldDeadlock: ("wouldDeadlock", nil)
        case .notStored(let why): ("notStored:\(why)", nil)
        case .unnamedSender: ("unnamedSender", nil)
        case .duplicate(let id, let outcome):
            (
                "duplicate:\(id.debugDescription)"
                    + (outcome.map { "|\($0.kind.rawValue)|\($0.description)" } ?? ""), nil
            )
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
        case ("unnamedSender", _): self = .unnamedSender
        default:
            if wireName.hasPrefix("notStored:") {
                self = .notStored(String(wireName.dropFirst("notStored:".count)))
            } else if wireName.hasPrefix("duplicate:"),
                let duplicate = Self.duplicate(wireName.dropFirst("duplicate:".count))
            {
                self = duplicate
            } else {
                return nil
            }
        }
    }

    /// A duplicate's details, `<full id>` or `<full id>|<kind>|<description>`; `nil` if they do
    /// not read.
    private static func duplicate(_ details: Substring) -> Self? {
        let parts = details.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard let id = EventID(debugDescription: String(parts[0])) else { return nil }
        switch parts.count {
        case 1:
            return .duplicate(of: id, outcome: nil)
        case 3:
            guard let kind = Outcome.Kind(rawValue: String(parts[1])) else { return nil }
            return .duplicate(
                of: id, outcome: EventSystem.StoredOutcome(kind: kind, description: String(parts[2])))
        default:
            return nil
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
