/// One measured comparison: the library doing something, and a hand-written baseline doing the
/// same work without it, in the same run.
@MainActor
protocol Scenario {
    /// A short identifier for `--filter` (`actors`, `hit-test`, …).
    var id: String { get }
    /// The scenario's name in the table.
    var title: String { get }
    /// Measures the scenario and returns its rows; throws when a measured path gave a wrong
    /// result (a benchmark of a failing path is worthless: the run stops).
    func run(_ measurer: Measurer) async throws -> [Row]
}

extension Scenario {
    /// Whether `--filter text` selects this scenario.
    func matches(_ text: String) -> Bool {
        let text = text.lowercased()
        return id.lowercased().contains(text) || title.lowercased().contains(text)
    }
}

/// Every scenario, in the order of the issue, then the peers, the integrations' tracers and, with
/// the trait `RemoteAndStores`, the remote hop and the stores.
@MainActor
let allScenarios: [any Scenario] = coreScenarios + remoteAndStoreScenarios

/// Whether this build has the remote hop and store rows (the trait `RemoteAndStores`).
#if RemoteAndStores
    let hasRemoteAndStoreScenarios = true
#else
    let hasRemoteAndStoreScenarios = false
#endif

/// The rows across a process boundary, built with the trait `RemoteAndStores` only.
@MainActor
private var remoteAndStoreScenarios: [any Scenario] {
    #if RemoteAndStores
        [RemoteHopOverGRPC(), StoredPosts(), PostgresStore()]
    #else
        []
    #endif
}

/// The scenarios every build has.
@MainActor
private let coreScenarios: [any Scenario] = [
    AwaitedSendActors(),
    DeadlineSends(),
    AwaitedSendSharedExecutor(),
    MainActorChain(),
    PostedEvents(),
    HandlerLookup(),
    HitTesting(),
    GestureRecognizers(),
    GesturePointers(),
    Tracers(),
    Observation(),
    Interception(),
    MemoryFootprint(),
    PostingFlood(),
    QueuedPostMemory(),
    NotificationCenterReference(),
    Peers(),
    TracerCost.logging,
    TracerCost.span,
    TracerCost.metrics,
    Retries(),
    Upcasts(),
]

/// What a row's figure must be to meet its target.
enum Target: Sendable {
    /// Library ns/hop ÷ baseline ns/hop at most this.
    case ratioAtMost(Double)
    /// Library ns/hop at most this.
    case nanosecondsPerHopAtMost(Double)
    /// Library ns/hop at most this many beyond the baseline's ns/hop.
    case extraNanosecondsPerHopAtMost(Double)
    /// Library throughput at least this many times the baseline's (ratio at most its inverse).
    case throughputAtLeast(Double)
    /// Library bytes at most this many beyond the baseline's.
    case extraBytesAtMost(Double)
    /// Library bytes (per responder, per post) at most this many.
    case bytesAtMost(Double)
    /// The same number of allocations per event at every depth (no allocation per hop).
    case sameAtEveryDepth
    /// Library ns/hop below the baseline's (a peer library's): ratio under 1.
    case fasterThanBaseline
    /// Reported, not judged.
    case report

    var description: String {
        switch self {
        case .ratioAtMost(let ratio): return "≤ \(Self.format(ratio))×"
        case .nanosecondsPerHopAtMost(let limit): return "≤ \(Self.format(limit)) ns/hop"
        case .extraNanosecondsPerHopAtMost(let limit): return "≤ +\(Self.format(limit)) ns/hop"
        case .throughputAtLeast(let factor): return "≥ \(Self.format(factor))× events/s"
        case .extraBytesAtMost(let bytes): return "≤ +\(Self.format(bytes)) B"
        case .bytesAtMost(let bytes): return "≤ \(Self.format(bytes)) B"
        case .sameAtEveryDepth: return "same at every D"
        case .fasterThanBaseline: return "faster than peer"
        case .report: return "report"
        }
    }

    /// Whether a row with this library figure per hop, ratio, difference (per event) and
    /// difference per hop meets the target; `nil` when it cannot be judged from the row alone.
    func isMet(perHop: Double?, ratio: Double?, difference: Double?, differencePerHop: Double?) -> Bool? {
        switch self {
        case .ratioAtMost(let limit): return ratio.map { $0 <= limit }
        case .nanosecondsPerHopAtMost(let limit): return perHop.map { $0 <= limit }
        case .extraNanosecondsPerHopAtMost(let limit): return differencePerHop.map { $0 <= limit }
        case .throughputAtLeast(let factor): return ratio.map { $0 <= 1 / factor }
        case .extraBytesAtMost(let limit): return difference.map { $0 <= limit }
        case .bytesAtMost(let limit): return perHop.map { $0 <= limit }
        case .fasterThanBaseline: return ratio.map { $0 < 1 }
        case .sameAtEveryDepth, .report: return nil
        }
    }

    /// The target of an awaited send through D responders: a one-hop send (the fixed cost of a
    /// send) within 2.5× a bare actor call, and from D = 8 on, each hop within 1.25× a bare hop.
    static func awaitedSend(depth: Int) -> Target {
        depth == 1 ? .ratioAtMost(2.5) : .ratioAtMost(1.25)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// What a row's figures count.
enum Unit: String, Sendable {
    /// Nanoseconds (per event and per hop).
    case nanoseconds = "ns"
    /// Bytes per responder.
    case bytes = "B"
    /// Heap allocations per event.
    case allocations = "allocs"
    /// Peak resident memory growth, in KiB.
    case kibibytes = "KiB"
}

/// One line of the results.
struct Row: Sendable {
    /// The awaited-send rows of a scenario: one per depth, judged by ``Target/awaitedSend(depth:)``.
    static func awaitedSend(
        id: String, title: String, samples: [(depth: Int, library: Sample, baseline: Sample)]
    ) -> [Row] {
        samples.map {
            Row(
                id: id, scenario: title, depth: $0.depth, hops: Double($0.depth), library: $0.library,
                baseline: $0.baseline, target: .awaitedSend(depth: $0.depth))
        }
    }

    /// The scenario's id (`actors`, …).
    var id: String
    /// The scenario's title plus a variant (`1 senders`, `wide`, …).
    var scenario: String
    /// The chain depth, or the tree's size; `nil` when there is none.
    var depth: Int?
    /// Hops (or visited views, or observers) per event: ns/hop = ns/event ÷ hops.
    var hops: Double
    /// The library: per event (ns), or the memory figure.
    var library: Sample?
    /// The baseline: per event (ns), or the memory figure.
    var baseline: Sample?
    /// The baseline's hops per event, when not the library's.
    var baselineHops: Double?
    var unit: Unit = .nanoseconds
    var target: Target
    /// Set for targets that need more than one row to judge.
    var metOverride: Bool?
    /// A remark printed under the table.
    var note: String?

    /// The library per hop.
    var libraryPerHop: Sample? { library?.scaled(by: 1 / hops) }
    /// The baseline per hop.
    var baselinePerHop: Sample? { baseline?.scaled(by: 1 / (baselineHops ?? hops)) }

    /// Library per hop ÷ baseline per hop (medians).
    var ratio: Double? {
        guard let library = libraryPerHop, let baseline = baselinePerHop, baseline.median > 0 else {
            return nil
        }
        return library.median / baseline.median
    }

    /// Whether the target is met; `nil` for report-only rows and pending measurements.
    var met: Bool? {
        if let metOverride { return metOverride }
        let difference: Double? =
            if let library, let baseline { library.median - baseline.median } else { nil }
        let differencePerHop: Double? =
            if let library = libraryPerHop, let baseline = baselinePerHop {
                library.median - baseline.median
            } else {
                nil
            }
        return target.isMet(
            perHop: libraryPerHop?.median, ratio: ratio, difference: difference,
            differencePerHop: differencePerHop)
    }
}
