import ResponderChain

/// How a store names what it finds unasserted: short, with the event first.
enum TestStoreNaming {
    /// `PlaceOrder, failed at Pricing (PricingError.outOfStock)`.
    static func name(_ event: any Event, _ outcome: Outcome) -> String {
        "\(event.traceName), \(summary(of: outcome))"
    }

    /// `handled by Orders`, `failed at Pricing (PricingError.outOfStock)`, `timed out at Payment`.
    static func summary(of outcome: Outcome) -> String {
        switch outcome {
        case .handled(let handled):
            return "handled by \(handled.handlers.map(\.label).joined(separator: ", "))"
        case .unhandled(let unhandled):
            return "unhandled at root \(unhandled.root)"
        case .interrupted(let interruption):
            return "interrupted after \(interruption.lastReached)"
        case .cycleDetected(let cycle):
            return "cycle detected at \(cycle.repeated)"
        case .cancelled(let stop):
            return "cancelled at \(stop.responder) (\(stop.reason))"
        case .timedOut(let stop):
            return "timed out at \(stop.responder)"
        case .failed(let failure):
            return "failed at \(failure.responder) (\(errorName(failure.error)))"
        case .rejected(let rejection):
            return "rejected at \(rejection.sender) (\(rejection.reason))"
        }
    }

    /// `PricingError.outOfStock` for an enum case; the error's own description otherwise, when it
    /// already names its type.
    static func errorName(_ error: any Error) -> String {
        let type = String(describing: Swift.type(of: error))
        let described = String(describing: error)
        return described.hasPrefix(type) ? described : "\(type).\(described)"
    }

    /// `1 dead letter`, `2 dead letters`.
    static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
