import ResponderChain

/// Scenario 5: the cost of finding a responder's handler for an event, per hop: the library's
/// typed lookup (`Strategies.handles(_:)`, the same slot search a hop makes: the event type's
/// `ObjectIdentifier` against a 4-entry table) against a `[String: handler]` dictionary looked up
/// by event name.
///
/// Each iteration looks up each of the four registered events once (4 lookups); the figures are
/// per lookup. Both sides go through one non-inlined call per lookup, so the optimizer can
/// neither hoist nor fold them.
struct HandlerLookup: Scenario {
    let id = "lookup"
    let title = "5 handler lookup, 4-entry table"

    func run(_ measurer: Measurer) async -> [Row] {
        let strategies = ChainActor.strategies
        let strings = StringKeyedTable()
        let names = StringKeyedTable.names
        let (librarySample, baselineSample) = await measurer.measurePair(
            library: { await Self.lookUp(in: strategies, iterations: $0) },
            baseline: { await Self.lookUp(names, in: strings, iterations: $0) })
        return [
            Row(
                id: id, scenario: title, depth: nil, hops: 4, library: librarySample,
                baseline: baselineSample, target: .nanosecondsPerHopAtMost(25),
                note: "5: Strategies.handles(_:) (typed slot search) vs [String: handler] lookup; "
                    + "lookup only, the handler call is in scenarios 1-3")
        ]
    }

    @concurrent
    static func lookUp(in strategies: Strategies<ChainActor>, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var found = 0
        for _ in 0..<iterations {
            if handles(strategies, DecoyA.self) { found &+= 1 }
            if handles(strategies, DecoyB.self) { found &+= 1 }
            if handles(strategies, DecoyC.self) { found &+= 1 }
            if handles(strategies, Probe.self) { found &+= 1 }
        }
        return stopwatch.stop(iterations: iterations, checksum: UInt64(found))
    }

    @concurrent
    static func lookUp(_ names: [String], in table: StringKeyedTable, iterations: Int) async
        -> Timed
    {
        let stopwatch = Stopwatch()
        var found = 0
        for _ in 0..<iterations {
            for name in names where table.handles(name) { found &+= 1 }
        }
        return stopwatch.stop(iterations: iterations, checksum: UInt64(found))
    }

    @inline(never)
    private nonisolated static func handles<E: Event>(_ strategies: Strategies<ChainActor>, _ type: E.Type)
        -> Bool
    {
        strategies.handles(type)
    }
}
