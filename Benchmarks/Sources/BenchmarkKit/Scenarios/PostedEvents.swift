import ResponderChain

/// Scenario 4: posted (fire-and-forget) events, FIFO per sender, with 1 and 2 senders: the
/// throughput of the library's per-sender entry queue against a mailbox and consumer task per
/// responder (``MailboxPipeline``).
///
/// Both sides take every event through the same bottom responder: the library's single entry
/// queue for that sender against the pipeline's single bottom mailbox; with two senders, both
/// post into it concurrently.
struct PostedEvents: Scenario {
    let id = "posted"
    let title = "4 posted events"

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        for depth in measurer.options.depths {
            let pipeline = MailboxPipeline(depth: depth)
            let library = ChainActor.chain(depth: depth)
            for senders in [1, 2] {
                let (librarySample, baselineSample) = await measurer.measurePair(
                    library: { await Self.post(library, senders: senders, iterations: $0) },
                    baseline: { await Self.post(pipeline, senders: senders, iterations: $0) })
                rows.append(
                    Row(
                        id: id, scenario: "\(title), \(senders) sender\(senders == 1 ? "" : "s")",
                        depth: depth, hops: Double(depth), library: librarySample,
                        baseline: baselineSample, target: .throughputAtLeast(depth == 1 ? 2 : 4), note: nil))
            }
            pipeline.shutDown()
            // A retry policy that never triggers (every post is handled) against the same chain
            // in a system without one: what having a policy costs a post that succeeds.
            let retrying = InterceptingActor.chain(
                depth: depth,
                system: EventSystem(retryPolicies: EventSystem.RetryPolicies(standard: .default)),
                topCaptures: false)
            let plain = InterceptingActor.chain(depth: depth, system: EventSystem(), topCaptures: false)
            let (withPolicy, withoutPolicy) = await measurer.measurePair(
                library: { await Self.post(retrying, iterations: $0) },
                baseline: { await Self.post(plain, iterations: $0) })
            rows.append(
                Row(
                    id: id, scenario: "\(title), 1 sender, a retry policy that never triggers, against none",
                    depth: depth, hops: Double(depth), library: withPolicy, baseline: withoutPolicy,
                    target: .ratioAtMost(1.05), note: nil))
        }
        return rows
    }

    /// `iterations` events posted from `bottom` by one sender, timed until the last ticket has
    /// its outcome.
    @concurrent
    static func post(_ bottom: InterceptingActor, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var last: Ticket?
        for index in 0..<iterations { last = await bottom.post(Probe(a: index, b: 1, c: 2)) }
        let checksum = UInt64(await last?.outcome.hops ?? 0)
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }

    /// `iterations` events posted by `senders` concurrent senders into the mailbox pipeline,
    /// timed until the last one reached the top.
    @concurrent
    static func post(_ pipeline: MailboxPipeline, senders: Int, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for index in stride(from: sender, to: iterations, by: senders) {
                        pipeline.post(Probe(a: index, b: 1, c: 2))
                    }
                    await pipeline.flush()
                }
            }
        }
        return stopwatch.stop(iterations: iterations, checksum: UInt64(iterations))
    }

    /// `iterations` events posted from `bottom` by `senders` concurrent senders, timed until
    /// each sender's last ticket has its outcome (the queue is FIFO per sender, so the last
    /// outcome comes after all the others).
    @concurrent
    static func post(_ bottom: ChainActor, senders: Int, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        let checksum = await withTaskGroup(of: UInt64.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    var last: Ticket?
                    for index in stride(from: sender, to: iterations, by: senders) {
                        last = await bottom.post(Probe(a: index, b: 1, c: 2))
                    }
                    guard let last else { return 0 }
                    return UInt64(await last.outcome.hops)
                }
            }
            return await group.reduce(0, &+)
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }
}
