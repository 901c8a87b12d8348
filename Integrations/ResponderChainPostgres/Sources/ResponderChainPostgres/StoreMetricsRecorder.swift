internal import CoreMetrics
internal import Synchronization

/// The counters and gauges of a ``PostgresPostStore``, made once from its
/// ``PostgresStoreMetrics``.
final class StoreMetricsRecorder: Sendable {
    let settings: PostgresStoreMetrics
    let claimedKeys: Counter
    let claimedPosts: Counter
    let takeovers: Counter
    let lostLeases: Counter
    let redeliveredPosts: Counter
    let refusedFinishes: Counter
    let unfinishedPosts: Gauge
    let keysWithUnfinishedPosts: Gauge
    let postsAwaitingNewerReader: Gauge
    let oldestUnfinishedAge: Gauge
    /// The leases already counted as lost, by key (the heartbeat sees a lost lease at each
    /// beat until the post office releases it).
    private let countedLost = Mutex<[String: Int64]>([:])
    /// The per-key age gauges reported at the last sample, by key (only the sampler uses them).
    private let ageByKey = Mutex<[String: Gauge]>([:])

    init(_ settings: PostgresStoreMetrics) {
        typealias Names = PostgresStoreMetrics
        self.settings = settings
        let dimensions = settings.dimensions
        let factory = settings.factory
        func counter(_ label: String, _ extra: [(String, String)] = []) -> Counter {
            Counter(label: label, dimensions: dimensions + extra, factory: factory)
        }
        func gauge(_ label: String) -> Gauge { Gauge(label: label, dimensions: dimensions, factory: factory) }
        claimedKeys = counter(Names.claimedKeys)
        claimedPosts = counter(Names.claimedPosts)
        takeovers = counter(Names.leaseExpiries, [(Names.kindDimension, "takeover")])
        lostLeases = counter(Names.leaseExpiries, [(Names.kindDimension, "lost")])
        redeliveredPosts = counter(Names.redeliveredPosts)
        refusedFinishes = counter(Names.refusedFinishes)
        unfinishedPosts = gauge(Names.unfinishedPosts)
        keysWithUnfinishedPosts = gauge(Names.keysWithUnfinishedPosts)
        postsAwaitingNewerReader = gauge(Names.postsAwaitingNewerReader)
        oldestUnfinishedAge = gauge(Names.oldestUnfinishedAge)
    }

    /// Counts a claim: `keys` leased, `posts` given, of which `redelivered` had been claimed
    /// before, and `takeovers` keys whose expired lease another consumer held.
    func recordClaim(keys: Int, posts: Int, counts: ClaimCounts) {
        guard keys > 0 || posts > 0 else { return }
        claimedKeys.increment(by: Int64(keys))
        claimedPosts.increment(by: Int64(posts))
        if counts.takeovers > 0 { takeovers.increment(by: Int64(counts.takeovers)) }
        if counts.redeliveries > 0 { redeliveredPosts.increment(by: Int64(counts.redeliveries)) }
    }

    /// Counts `count` refused finishes.
    func recordRefused(_ count: Int) {
        refusedFinishes.increment(by: Int64(count))
    }

    /// Counts the leases of `lost` (key → token) not counted yet, and forgets the counted
    /// leases that are no longer in `held`.
    func recordLost(_ lost: [String: Int64], held: [String: Int64]) {
        let new = countedLost.withLock { counted in
            counted = counted.filter { held[$0.key] == $0.value }
            var new = 0
            for (key, token) in lost where counted[key] != token {
                counted[key] = token
                new += 1
            }
            return new
        }
        if new > 0 { lostLeases.increment(by: Int64(new)) }
    }

    /// Records a sample of the unfinished posts.
    func record(_ sample: UnfinishedSample) {
        unfinishedPosts.record(sample.posts)
        keysWithUnfinishedPosts.record(sample.keys)
        postsAwaitingNewerReader.record(sample.awaitingNewerReader)
        oldestUnfinishedAge.record(sample.oldestAges.first?.age ?? 0)
        let reported = sample.oldestAges.prefix(max(0, settings.keyLimit))
        let dropped: [Gauge] = ageByKey.withLock { gauges in
            var next: [String: Gauge] = [:]
            for (key, age) in reported {
                let gauge =
                    gauges.removeValue(forKey: key)
                    ?? Gauge(
                        label: PostgresStoreMetrics.oldestUnfinishedAgeByKey,
                        dimensions: settings.dimensions + [(PostgresStoreMetrics.keyDimension, key)],
                        factory: settings.factory)
                gauge.record(age)
                next[key] = gauge
            }
            defer { gauges = next }
            return Array(gauges.values)
        }
        for gauge in dropped { gauge.destroy() }
    }
}

/// What a claim counted in its transaction.
struct ClaimCounts: Sendable {
    /// Keys whose previous lease (expired) another consumer held.
    var takeovers = 0
    /// Posts that an earlier claim had been given.
    var redeliveries = 0
}

/// One sample of the unfinished posts.
struct UnfinishedSample: Sendable {
    /// How many posts are not finished.
    var posts = 0
    /// How many keys have unfinished posts.
    var keys = 0
    /// How many unfinished posts hold a schema version newer than this consumer reads.
    var awaitingNewerReader = 0
    /// The age in seconds of the oldest unfinished post of the keys whose is oldest, oldest
    /// first.
    var oldestAges: [(key: String, age: Double)] = []
}
