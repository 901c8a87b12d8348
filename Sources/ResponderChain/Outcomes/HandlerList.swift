/// The responders that handled one event, in order, as a route collects them.
///
/// Most sends are handled once, or not at all: the first handler is kept inline, so collecting it
/// allocates nothing; only a second one starts an array.
struct HandlerList: Sendable {
    private var first: ResponderID?
    private var rest: [ResponderID] = []
    /// How many of the first handlers handled the event in the capture pass.
    private(set) var captureCount = 0

    init() {}

    /// Appends a responder whose capture handlers handled the event (before any of the bubble).
    mutating func appendCapturing(_ handler: ResponderID) {
        append(handler)
        captureCount += 1
    }

    /// Whether no responder handled the event.
    var isEmpty: Bool { first == nil }

    mutating func append(_ handler: ResponderID) {
        if first == nil {
            first = handler
        } else {
            rest.append(handler)
        }
    }

    /// The handlers, in order.
    var all: [ResponderID] {
        guard let first else { return [] }
        return [first] + rest
    }
}
