public import CoreMetrics

/// What a ``PostgresPostStore`` reports to swift-metrics, and how often it samples its gauges.
///
/// The store reports to the bootstrapped `MetricsSystem.factory` by default (nothing is
/// exported until the application bootstraps a backend); pass another factory, or `nil` as the
/// store's `metrics` to report nothing and run no sampling query.
///
/// ```swift
/// let prometheus = PrometheusMetricsFactory(registry: registry)
/// let store = try PostgresPostStore(
///     client: client, events: events,
///     metrics: PostgresStoreMetrics(factory: prometheus, interval: .seconds(5)))
/// ```
///
/// **Counters**, counted by this consumer as it works:
///
/// | Label | Counts |
/// |---|---|
/// | `responderchain_store_claimed_keys_total` | keys this consumer leased (``PostgresPostStore/claim(limit:)``) |
/// | `responderchain_store_claimed_posts_total` | posts it was given under those leases |
/// | `responderchain_store_lease_expiries_total{kind="takeover"}` | keys it leased whose previous lease had expired in another consumer's hands |
/// | `responderchain_store_lease_expiries_total{kind="lost"}` | leases it held that its heartbeat found taken by another consumer (each lease once) |
/// | `responderchain_store_redelivered_posts_total` | posts it was given that an earlier claim (by any consumer) did not finish |
/// | `responderchain_store_refused_finishes_total` | finishes refused because their lease was no longer current |
///
/// **Gauges**, sampled by ``PostgresPostStore/run()`` every ``interval`` (one query over the
/// unfinished posts; every consumer of the database reports the same values, but for the posts
/// awaiting a newer reader, which depend on what each consumer reads):
///
/// | Label | Value |
/// |---|---|
/// | `responderchain_store_unfinished_posts` | posts not finished (the queue's depth) |
/// | `responderchain_store_keys_with_unfinished_posts` | ordering keys with unfinished posts |
/// | `responderchain_store_posts_awaiting_newer_reader` | unfinished posts whose event has a schema version newer than this consumer's `events` read (left for a newer binary, see ``PostgresPostStore/NewerSchemaVersions``) |
/// | `responderchain_store_oldest_unfinished_age_seconds` | age of the oldest unfinished post (0 when none) |
/// | `responderchain_store_oldest_unfinished_age_seconds_by_key{key}` | age of the oldest unfinished post of each of the ``keyLimit`` keys whose oldest unfinished post is oldest |
///
/// The per-key gauge is bounded: at most ``keyLimit`` keys carry it at once, and a key's gauge
/// is destroyed (dropped by the backend) when the key leaves that set. Ordering keys are your
/// data (user or order identifiers, say): set ``keyLimit`` to 0 to keep them out of labels.
/// Ages are measured on the database's clock.
public struct PostgresStoreMetrics: Sendable {
    /// The backend.
    public var factory: any MetricsFactory
    /// How often ``PostgresPostStore/run()`` samples the gauges, on the store's clock.
    public var interval: Duration
    /// How many keys the per-key age gauge reports at most (the keys whose oldest unfinished
    /// post is oldest).
    public var keyLimit: Int
    /// Dimensions added to every metric (the service's name, say).
    public var dimensions: [(String, String)]

    /// Reports to `factory` with `dimensions`, sampling the gauges every `interval` and the
    /// per-key age for at most `keyLimit` keys.
    public init(
        factory: any MetricsFactory = MetricsSystem.factory, interval: Duration = .seconds(10),
        keyLimit: Int = 10, dimensions: [(String, String)] = []
    ) {
        self.factory = factory
        self.interval = interval
        self.keyLimit = keyLimit
        self.dimensions = dimensions
    }

    /// `responderchain_store_claimed_keys_total`
    public static let claimedKeys = "responderchain_store_claimed_keys_total"
    /// `responderchain_store_claimed_posts_total`
    public static let claimedPosts = "responderchain_store_claimed_posts_total"
    /// `responderchain_store_lease_expiries_total`, with ``kindDimension``.
    public static let leaseExpiries = "responderchain_store_lease_expiries_total"
    /// `responderchain_store_redelivered_posts_total`
    public static let redeliveredPosts = "responderchain_store_redelivered_posts_total"
    /// `responderchain_store_refused_finishes_total`
    public static let refusedFinishes = "responderchain_store_refused_finishes_total"
    /// `responderchain_store_unfinished_posts`
    public static let unfinishedPosts = "responderchain_store_unfinished_posts"
    /// `responderchain_store_keys_with_unfinished_posts`
    public static let keysWithUnfinishedPosts = "responderchain_store_keys_with_unfinished_posts"
    /// `responderchain_store_posts_awaiting_newer_reader`
    public static let postsAwaitingNewerReader = "responderchain_store_posts_awaiting_newer_reader"
    /// `responderchain_store_oldest_unfinished_age_seconds`
    public static let oldestUnfinishedAge = "responderchain_store_oldest_unfinished_age_seconds"
    /// `responderchain_store_oldest_unfinished_age_seconds_by_key`, with ``keyDimension``.
    public static let oldestUnfinishedAgeByKey = "responderchain_store_oldest_unfinished_age_seconds_by_key"
    /// The dimension of ``leaseExpiries``: `kind`, valued `takeover` or `lost`.
    public static let kindDimension = "kind"
    /// The dimension of ``oldestUnfinishedAgeByKey``: `key`, the ordering key's name.
    public static let keyDimension = "key"
}
