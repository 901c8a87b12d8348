import ResponderChain

/// Helpers for the observation suites.
enum ObservationFixtures {
    /// Reads exactly `count` elements that are already in `stream` (check ``ObservationStream/_unreadCount``
    /// first: reading more than the stream holds would wait for sends that never come).
    static func read<Element>(_ count: Int, from stream: ObservationStream<Element>) async -> [Element] {
        var elements: [Element] = []
        guard count > 0 else { return elements }
        for await element in stream {
            elements.append(element)
            if elements.count == count { break }
        }
        return elements
    }

    /// Reads every element of `stream` until it finishes.
    static func readToEnd<Element>(_ stream: ObservationStream<Element>) async -> [Element] {
        var elements: [Element] = []
        for await element in stream { elements.append(element) }
        return elements
    }
}

extension EventSystem.FinishedSend {
    /// The number of a ``ConcurrencyFixtures/Numbered`` event.
    var number: Int? { (event as? ConcurrencyFixtures.Numbered)?.number }
}
