/// The labels of the metrics a ``MetricsTracer`` and ``PostingGauges`` report, and the names of
/// their dimensions.
///
/// Every label starts with a prefix, `responder_chain` by default; change the prefix, or any one
/// label, to fit your naming:
///
/// ```swift
/// var names = MetricNames(prefix: "checkout_events")
/// names.hopDuration = "checkout_handler_duration_seconds"
/// let tracer = MetricsTracer(names: names, dimensions: [("chain", "checkout")])
/// ```
///
/// Timers are named in seconds, as Prometheus backends report them; swift-metrics itself records
/// nanoseconds and leaves the unit to the backend.
public struct MetricNames: Hashable, Sendable {
    /// Counter of finished sends, one per ``kindDimension`` value (every `Outcome.Kind`):
    /// `responder_chain_outcomes_total`.
    public var outcomes: String
    /// Counter of finished sends whose outcome goes to dead letters
    /// (`Outcome.goesToDeadLetters`), whether or not a dead-letter sink is installed:
    /// `responder_chain_dead_letters_total`.
    public var deadLetters: String
    /// Timer of each send, from its `sent` to its `finished` (for a posted event: from the start
    /// of its delivery): `responder_chain_send_duration_seconds`.
    public var sendDuration: String
    /// Timer of the time each posted event waited in its queue before delivery (`Sent.queued`):
    /// `responder_chain_queued_duration_seconds`.
    public var queuedDuration: String
    /// Timer of each hop's handlers (`Hop.Record.duration`), with the responder's label as
    /// ``responderDimension``: `responder_chain_hop_duration_seconds`.
    public var hopDuration: String
    /// Gauge of an event system's `outstandingPosts`: `responder_chain_outstanding_posts`.
    public var outstandingPosts: String
    /// Gauge of an event system's `suspendedPosters`: `responder_chain_suspended_posters`.
    public var suspendedPosters: String
    /// Gauge of an event system's `peakOutstandingPosts`: `responder_chain_peak_outstanding_posts`.
    public var peakOutstandingPosts: String

    /// The labels `<prefix>_outcomes_total`, `<prefix>_dead_letters_total`,
    /// `<prefix>_send_duration_seconds`, `<prefix>_queued_duration_seconds`,
    /// `<prefix>_hop_duration_seconds`, `<prefix>_outstanding_posts`,
    /// `<prefix>_suspended_posters` and `<prefix>_peak_outstanding_posts`.
    ///
    /// ```swift
    /// MetricNames().outcomes                      // "responder_chain_outcomes_total"
    /// MetricNames(prefix: "ui_events").outcomes   // "ui_events_outcomes_total"
    /// ```
    public init(prefix: String = "responder_chain") {
        outcomes = "\(prefix)_outcomes_total"
        deadLetters = "\(prefix)_dead_letters_total"
        sendDuration = "\(prefix)_send_duration_seconds"
        queuedDuration = "\(prefix)_queued_duration_seconds"
        hopDuration = "\(prefix)_hop_duration_seconds"
        outstandingPosts = "\(prefix)_outstanding_posts"
        suspendedPosters = "\(prefix)_suspended_posters"
        peakOutstandingPosts = "\(prefix)_peak_outstanding_posts"
    }

    /// The dimension of ``outcomes`` that names the outcome's kind: `kind`, valued with
    /// `Outcome.Kind`'s raw values (`handled`, `unhandled`, `interrupted`, `cycleDetected`,
    /// `cancelled`, `timedOut`, `failed`, `rejected`).
    public static let kindDimension = "kind"

    /// The dimension of ``hopDuration`` that names the responder: `responder`, valued with the
    /// responder's `label` (its type's name unless it says otherwise).
    public static let responderDimension = "responder"

    /// The ``responderDimension`` value shared by the hops of every responder label beyond a
    /// ``MetricsTracer/HopTimers/perResponder(limit:)`` limit: `other`.
    public static let otherResponders = "other"
}
