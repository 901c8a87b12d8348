import ResponderChain

/// Scenario 8: memory. Bytes the library adds per responder (a responder type against the same
/// type, same stored fields, not conforming), counted as the bytes requested from `malloc` per
/// instance; and heap allocations per awaited send at D = 8 and 512 (no allocation per hop means
/// the same count at both), counted by interposing `malloc` (``AllocationCounter``).
struct MemoryFootprint: Scenario {
    let id = "memory"
    let title = "8 memory"

    func run(_ measurer: Measurer) async -> [Row] {
        let counter = measurer.allocations
        guard counter.isWorking else {
            return [
                Row(
                    id: id, scenario: "\(title): not counted", depth: nil, hops: 1, library: nil,
                    baseline: nil, unit: .allocations, target: .report,
                    note: "8: allocations not counted on this platform (malloc interposition is "
                        + "Linux/glibc only, or its self-test failed)")
            ]
        }
        var rows = [
            bytesRow(
                "actor", counter, library: { ChainActor(isTop: false, next: nil) },
                baseline: { BareActor(isTop: false, next: nil) }),
            bytesRow(
                "actor on a shared executor", counter,
                library: { SharedChainActor(leader: Self.leader, isTop: false, next: nil) },
                baseline: { BareSharedActor(leader: Self.leader, isTop: false, next: nil) }),
            bytesRow(
                "@MainActor class", counter, library: { MainChainResponder(isTop: false, next: nil) },
                baseline: { BareMainActorLink(isTop: false, next: nil) }),
        ]

        let events = measurer.options.quick ? 200 : 5_000
        var perDepth: [Row] = []
        for depth in [8, 512] {
            let library = ChainActor.chain(depth: depth)
            let baseline = BareActor.chain(depth: depth)
            let libraryCount = await Self.allocationsPerSend(library, events: events, counter: counter)
            let baselineCount = await Self.allocationsPerSend(baseline, events: events, counter: counter)
            perDepth.append(
                Row(
                    id: id, scenario: "\(title), allocations per send (distinct actors)",
                    depth: depth, hops: 1, library: Sample([libraryCount]),
                    baseline: Sample([baselineCount]), unit: .allocations,
                    target: .sameAtEveryDepth))
        }
        let counts = perDepth.compactMap { $0.library?.median }
        let flat = (counts.max() ?? 0) - (counts.min() ?? 0) < 0.5
        for index in perDepth.indices { perDepth[index].metOverride = flat }
        rows += perDepth
        return rows
    }

    private static let leader = Leader()

    /// The bytes requested per instance of each type (1,000 instances of each, counted).
    private func bytesRow(
        _ kind: String, _ counter: AllocationCounter, library: () -> AnyObject,
        baseline: () -> AnyObject
    ) -> Row {
        let (libraryBytes, libraryUsable) = Self.bytesPerInstance(of: library, counter: counter)
        let (baselineBytes, baselineUsable) = Self.bytesPerInstance(of: baseline, counter: counter)
        return Row(
            id: id, scenario: "\(title), bytes per responder (\(kind))", depth: nil, hops: 1,
            library: Sample([libraryBytes]), baseline: Sample([baselineBytes]), unit: .bytes,
            target: .extraBytesAtMost(16),
            note: "8 (\(kind)): malloc_usable_size \(libraryUsable) B (library) vs "
                + "\(baselineUsable) B (plain)")
    }

    private static func bytesPerInstance(of make: () -> AnyObject, counter: AllocationCounter) -> (
        Double, Int
    ) {
        let count = 1_000
        var instances: [AnyObject] = []
        instances.reserveCapacity(count)
        let (_, reading) = counter.measure {
            for _ in 0..<count { instances.append(make()) }
        }
        let usable = counter.usableSize(of: Unmanaged.passUnretained(instances[0]).toOpaque())
        return (Double(reading.bytes) / Double(count), usable)
    }

    /// Heap allocations per awaited send from `bottom`, after a warm-up.
    @concurrent
    static func allocationsPerSend(_ bottom: ChainActor, events: Int, counter: AllocationCounter) async
        -> Double
    {
        for index in 0..<20 { await bottom.send(Probe(a: index, b: 1, c: 2)) }
        let before = counter.now
        for index in 0..<events { await bottom.send(Probe(a: index, b: 1, c: 2)) }
        return Double(counter.now.since(before).allocations) / Double(events)
    }

    /// Heap allocations per hand-forwarded event from `bottom`, after a warm-up.
    @concurrent
    static func allocationsPerSend(_ bottom: BareActor, events: Int, counter: AllocationCounter) async
        -> Double
    {
        for index in 0..<20 { _ = await bottom.receive(Probe(a: index, b: 1, c: 2), hop: 1) }
        let before = counter.now
        for index in 0..<events { _ = await bottom.receive(Probe(a: index, b: 1, c: 2), hop: 1) }
        return Double(counter.now.since(before).allocations) / Double(events)
    }
}
