import ResponderChain

/// Scenario 8, continued: the heap one queued post holds. The top responder's handler parks on
/// the first post of each sender (one sender, then 100: one lane each); N more posts (100,000;
/// 2,000 with `--quick`), spread evenly over the senders, queue behind them, with the system's
/// posting limit lifted above N. The figure is the growth of the heap in use (glibc's
/// `mallinfo2`) across those N posts, divided by N: what the library keeps per queued post (the
/// queue's entry, the ticket, its cancellation signal, the event if it is boxed). The poster's
/// array of tickets is reserved before, so it is not counted.
struct QueuedPostMemory: Scenario {
    let id = "queued-memory"
    let title = "8 memory per queued post"

    func run(_ measurer: Measurer) async -> [Row] {
        let counter = measurer.allocations
        let posts = measurer.options.quick ? 2_000 : 100_000
        guard counter.isWorking, counter.liveBytes > 0 else {
            return [
                Row(
                    id: id, scenario: "\(title): not measured", depth: nil, hops: 1, library: nil,
                    baseline: nil, unit: .bytes, target: .report,
                    note: "8 queued: the heap in use is read from glibc (Linux only)")
            ]
        }
        var rows: [Row] = []
        for lanes in [1, 100] {
            let bytes = await Self.bytesPerQueuedPost(posts: posts, lanes: lanes, counter: counter)
            let queued =
                lanes == 1 ? "\(posts) queued behind a parked handler" : "\(posts) queued in \(lanes) lanes"
            rows.append(
                Row(
                    id: lanes == 1 ? id : "\(id)-\(lanes)-lanes", scenario: "\(title) (\(queued))",
                    depth: nil, hops: 1, library: Sample([bytes]), baseline: nil, unit: .bytes,
                    target: .bytesAtMost(200),
                    note: "8 queued: heap in use (mallinfo2) after queueing \(posts) posts behind "
                        + "\(lanes == 1 ? "a parked handler" : "\(lanes) parked handlers"), minus before, per post"
                ))
        }
        return rows
    }

    @concurrent
    private static func bytesPerQueuedPost(posts: Int, lanes: Int, counter: AllocationCounter) async
        -> Double
    {
        let system = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: posts + lanes))
        let top = ParkingTop(system: system)
        var senders: [FloodSender] = []
        for _ in 0..<lanes { senders.append(FloodSender(top: top, system: system)) }
        var tickets: [Ticket] = []
        tickets.reserveCapacity(posts + lanes)
        for sender in senders { tickets.append(await sender.post(Probe(a: 0, b: 1, c: 2))) }
        await top.waitUntilParked(lanes)
        let before = counter.liveBytes
        for index in 1...posts {
            tickets.append(await senders[index % lanes].post(Probe(a: index, b: 1, c: 2)))
        }
        let after = counter.liveBytes
        await top.release()
        for ticket in tickets { _ = await ticket.outcome }
        return Double(Int64(bitPattern: after &- before)) / Double(posts)
    }
}

/// The top of the chain: its handler parks every event until released; later events pass
/// straight through.
private actor ParkingTop: Responder {
    nonisolated let eventSystem: EventSystem
    private var parked: [CheckedContinuation<Void, Never>] = []
    private var parkedWaiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    private var isReleased = false

    init(system: EventSystem) { self.eventSystem = system }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<ParkingTop> {
        $0.on(Probe.self) { top, _, _ in
            await top.parkUnlessReleased()
            return .handled
        }
    }

    private func parkUnlessReleased() async {
        guard !isReleased else { return }
        await withCheckedContinuation { continuation in
            parked.append(continuation)
            if let waiter = parkedWaiter, parked.count >= waiter.count {
                waiter.continuation.resume()
                parkedWaiter = nil
            }
        }
    }

    /// Returns once `count` handlers are parked.
    func waitUntilParked(_ count: Int) async {
        guard parked.count < count else { return }
        await withCheckedContinuation { parkedWaiter = (count, $0) }
    }

    /// Lets the parked handlers, and every later one, finish.
    func release() {
        isReleased = true
        for continuation in parked { continuation.resume() }
        parked = []
    }
}
