import ResponderChain

/// Scenario 8: memory. Bytes the library adds per responder (a responder type against the same
/// type, same stored fields, not conforming), counted as the bytes requested from `malloc` per
/// instance; and heap allocations per awaited send at D = 8 and 512 (no allocation per hop means
/// the same count at both), counted by interposing `malloc` (``AllocationCounter``).
struct MemoryFootprint: Scenario {
    let id = "memory"
    let title = "8 memory"

    func run(_ measurer: Measurer) async -> [Row] {
        guard AllocationCounter.isWorking else {
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
                "actor", library: { ChainActor(isTop: false, next: nil) },
                baseline: { BareActor(isTop: false, next: nil) }),
            bytesRow(
                "actor on a shared executor",
                library: { SharedChainActor(leader: Self.leader, isTop: false, next: nil) },
                baseline: { BareSharedActor(leader: Self.leader, isTop: false, next: nil) }),
            bytesRow(
                "@MainActor class", library: { MainChainResponder(isTop: false, next: nil) },
                baseline: { BareMainActorLink(isTop: false, next: nil) }),
        ]

        let events = measurer.options.quick ? 200 : 5_000
        var perDepth: [Row] = []
        for depth in [8, 512] {
            let library = ChainActor.chain(depth: depth)
            let baseline = BareActor.chain(depth: depth)
            let libraryCount = await Self.allocationsPerSend(library, events: events)
            let baselineCount = await Self.allocationsPerSend(baseline, events: events)
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
        _ kind: String, library: () -> AnyObject, baseline: () -> AnyObject
    ) -> Row {
        let (libraryBytes, libraryUsable) = Self.bytesPerInstance(of: library)
        let (baselineBytes, baselineUsable) = Self.bytesPerInstance(of: baseline)
        return Row(
            id: id, scenario: "\(title), bytes per responder (\(kind))", depth: nil, hops: 1,
            library: Sample([libraryBytes]), baseline: Sample([baselineBytes]), unit: .bytes,
            target: .extraBytesAtMost(16),
            note: "8 (\(kind)): malloc_usable_size \(libraryUsable) B (library) vs "
                + "\(baselineUsable) B (plain)")
    }

    private static func bytesPerInstance(of make: () -> AnyObject) -> (Double, Int) {
        let count = 1_000
        var instances: [AnyObject] = []
        instances.reserveCapacity(count)
        let (_, reading) = AllocationCounter.measure {
            for _ in 0..<count { instances.append(make()) }
        }
        return (Double(reading.bytes) / Double(count), usableSize(of: instances[0]))
    }

    private static func usableSize(of object: AnyObject) -> Int {
        AllocationCounter.usableSize(of: Unmanaged.passUnretained(object).toOpaque())
    }

    /// Heap allocations per awaited send from `bottom`, after a warm-up.
    @concurrent
    static func allocationsPerSend(_ bottom: ChainActor, events: Int) async -> Double {
        for index in 0..<20 { await bottom.send(Probe(a: index, b: 1, c: 2)) }
        let before = AllocationCounter.now
        for index in 0..<events { await bottom.send(Probe(a: index, b: 1, c: 2)) }
        return Double(AllocationCounter.now.since(before).allocations) / Double(events)
    }

    /// Heap allocations per hand-forwarded event from `bottom`, after a warm-up.
    @concurrent
    static func allocationsPerSend(_ bottom: BareActor, events: Int) async -> Double {
        for index in 0..<20 { _ = await bottom.receive(Probe(a: index, b: 1, c: 2), hop: 1) }
        let before = AllocationCounter.now
        for index in 0..<events { _ = await bottom.receive(Probe(a: index, b: 1, c: 2), hop: 1) }
        return Double(AllocationCounter.now.since(before).allocations) / Double(events)
    }
}
