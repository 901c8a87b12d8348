public import CoreMetrics
public import ResponderChain
import Synchronization

/// A ResponderChain tracer that reports to swift-metrics: a counter per outcome kind, a counter
/// of dead letters, a timer per send, per queued wait and per hop (with the responder's label as
/// a dimension).
///
/// ```swift
/// let tracer = MetricsTracer(dimensions: [("chain", "checkout")])
/// extension EventSystem {
///     static let checkout = EventSystem(tracer: tracer)
/// }
/// ```
///
/// With the default ``MetricNames``:
///
/// | metric | type | dimensions | recorded |
/// |---|---|---|---|
/// | `responder_chain_outcomes_total` | counter | `kind` | once per send, at `finished` |
/// | `responder_chain_dead_letters_total` | counter | | at `finished`, if the outcome goes to dead letters |
/// | `responder_chain_send_duration_seconds` | timer | | at `finished`: the time since `sent` |
/// | `responder_chain_queued_duration_seconds` | timer | | at `sent` of a posted event: its wait |
/// | `responder_chain_hop_duration_seconds` | timer | `responder` | at each `hopLeft`: the handlers' time |
///
/// Every metric also carries the fixed `dimensions` you give. Its metric objects are made once:
/// the eight outcome counters (one per `Outcome.Kind`, so all eight series exist from the start),
/// the dead-letter counter and the send timers when the tracer is made, a hop timer the first
/// time a responder label is seen.
///
/// **Cardinality.** The `kind` dimension has eight values. The `responder` dimension takes the
/// responder's `label`, which defaults to its type's name: the hop timers are then bounded by
/// the number of responder types. A responder that overrides `label` with something per
/// instance (a name, an id) would make them unbounded, so ``HopTimers/perResponder(limit:)``
/// caps the labels (100 by default): the hops of every later label share one timer with
/// `responder="other"` (a responder labelled `other` shares it too). ``HopTimers/unlabelled``
/// drops the dimension (one hop timer) and ``HopTimers/off`` the hop timer.
///
/// **Which sends it traces.** All of them: its gate accepts every send, because a counter that
/// missed the declined sends would be wrong. Its own work per send is two clock readings and an
/// entry in a mutex-protected table of send start times (keyed by event id, removed at
/// `finished`), unless ``timesSends`` is off; per hop, a look-up of the responder's timer in a
/// mutex-protected table and the timer's record. The routing's own work for a traced send comes
/// on top, and is most of it: measured on a 2-core VM, the adapter added 80–170 ns per hop to
/// the routing's traced path, and the two together made a chain of actors 2.9–3.9 times as slow
/// as with no tracer (the benchmarks' scenario 7d; Docs/Tracing.md has the figures).
///
/// **Which clock.** The queued and hop durations are the system's, read on its clock; the send
/// timer reads the clock the tracer is given (a tracer is made before its system, so it cannot
/// ask it): give the system's clock, as a test with a `ManualClock` does:
///
/// ```swift
/// let clock = ManualClock()
/// let system = EventSystem(tracer: MetricsTracer(clock: clock), clock: clock)
/// ```
///
/// The counters count a send when it finishes, so a send is seen by the outcome counter, the
/// dead-letter counter and the send timer together. Combine it with other tracers with a
/// `MultiplexTracer`.
public struct MetricsTracer: ResponderChain.Tracer {
    /// Whether and how the hops are timed.
    public enum HopTimers: Hashable, Sendable {
        /// One timer per responder label (``MetricNames/responderDimension``), for the first
        /// `limit` labels seen; the hops of later labels share one timer labelled
        /// ``MetricNames/otherResponders``.
        case perResponder(limit: Int)
        /// One timer for every hop, without a responder dimension.
        case unlabelled
        /// No hop timer: the hops are not timed.
        case off

        /// One timer per responder label, for up to 100 labels.
        public static let `default` = HopTimers.perResponder(limit: 100)
    }

    /// The labels of the metrics.
    public let names: MetricNames
    /// The fixed dimensions every metric carries, before its own.
    public let dimensions: [(String, String)]
    /// How the hops are timed.
    public let hopTimers: HopTimers
    /// Whether each send is timed (``MetricNames/sendDuration``).
    public let timesSends: Bool

    private let metrics: MetricObjects

    /// A tracer that reports to `factory` (the bootstrapped `MetricsSystem.factory` by default).
    ///
    /// - Parameters:
    ///   - names: The labels of the metrics.
    ///   - dimensions: Fixed dimensions every metric carries, e.g. `[("chain", "checkout")]`.
    ///   - hopTimers: Whether and how the hops are timed; one timer per responder label, up to
    ///     100, by default.
    ///   - timesSends: Whether each send is timed, from `sent` to `finished`.
    ///   - clock: The clock the send timer reads: give the `clock` of the event system the
    ///     tracer is installed in (a tracer is given to its system, so it cannot read the
    ///     system's); by default, the clock a system has by default. The queued and hop
    ///     durations come from the system, timed on its clock.
    ///   - factory: The metrics backend.
    ///
    /// ```swift
    /// let tracer = MetricsTracer(hopTimers: .unlabelled, factory: prometheus)
    /// ```
    public init(
        names: MetricNames = MetricNames(),
        dimensions: [(String, String)] = [],
        hopTimers: HopTimers = .default,
        timesSends: Bool = true,
        clock: any Clock<Duration> = ContinuousClock(),
        factory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.names = names
        self.dimensions = dimensions
        self.hopTimers = hopTimers
        self.timesSends = timesSends
        self.metrics = MetricObjects(
            names: names, dimensions: dimensions, hopTimers: hopTimers, timesSends: timesSends,
            clock: clock, factory: factory)
    }

    /// Counts and times `event`'s send: see the table above.
    public func record(_ event: TraceEvent) {
        switch event {
        case .sent(let sent):
            if let queued = sent.queued { metrics.queuedDuration.recordNanoseconds(queued.nanoseconds) }
            if let sends = metrics.sends { sends.started(sent.eventID) }
        case .hopEntered, .deadLettered:
            // Dead letters are counted at `finished`: `deadLettered` is reported only when a
            // dead-letter sink is installed.
            break
        case .hopLeft(let record):
            switch metrics.hops {
            case .perResponder(let table):
                table.timer(for: record.hop.responder.label).recordNanoseconds(record.duration.nanoseconds)
            case .unlabelled(let timer):
                timer.recordNanoseconds(record.duration.nanoseconds)
            case .off:
                break
            }
        case .finished(let outcome):
            metrics.outcomes[outcome.kind].increment()
            if outcome.goesToDeadLetters { metrics.deadLetters.increment() }
            if let sends = metrics.sends { sends.finished(outcome.eventID) }
        }
    }

    /// The number of sends started and not finished that the send timer holds a start time for
    /// (for tests: it is 0 once every send has finished).
    var unfinishedSends: Int { metrics.sends?.count ?? 0 }
}

/// The metric objects of one ``MetricsTracer``, made once.
private final class MetricObjects: Sendable {
    let outcomes: OutcomeCounters
    let deadLetters: Counter
    let queuedDuration: CoreMetrics.Timer
    let sends: SendTimer?
    let hops: Hops

    /// The hop timers.
    enum Hops: Sendable {
        case perResponder(HopTimerTable)
        case unlabelled(CoreMetrics.Timer)
        case off
    }

    init(
        names: MetricNames, dimensions: [(String, String)], hopTimers: MetricsTracer.HopTimers,
        timesSends: Bool, clock: any Clock<Duration>, factory: any MetricsFactory
    ) {
        outcomes = OutcomeCounters(label: names.outcomes, dimensions: dimensions, factory: factory)
        deadLetters = Counter(label: names.deadLetters, dimensions: dimensions, factory: factory)
        queuedDuration = CoreMetrics.Timer(
            label: names.queuedDuration, dimensions: dimensions, factory: factory)
        sends =
            timesSends
            ? SendTimer(
                CoreMetrics.Timer(label: names.sendDuration, dimensions: dimensions, factory: factory),
                clock: clock)
            : nil
        switch hopTimers {
        case .perResponder(let limit):
            hops = .perResponder(
                HopTimerTable(
                    label: names.hopDuration, dimensions: dimensions, limit: max(0, limit), factory: factory))
        case .unlabelled:
            hops = .unlabelled(
                CoreMetrics.Timer(label: names.hopDuration, dimensions: dimensions, factory: factory))
        case .off:
            hops = .off
        }
    }
}

/// One counter per outcome kind, all made up front.
private struct OutcomeCounters: Sendable {
    let handled, unhandled, interrupted, cycleDetected, cancelled, timedOut, failed, rejected: Counter

    init(label: String, dimensions: [(String, String)], factory: any MetricsFactory) {
        func counter(_ kind: Outcome.Kind) -> Counter {
            Counter(
                label: label, dimensions: dimensions + [(MetricNames.kindDimension, kind.rawValue)],
                factory: factory)
        }
        handled = counter(.handled)
        unhandled = counter(.unhandled)
        interrupted = counter(.interrupted)
        cycleDetected = counter(.cycleDetected)
        cancelled = counter(.cancelled)
        timedOut = counter(.timedOut)
        failed = counter(.failed)
        rejected = counter(.rejected)
    }

    subscript(kind: Outcome.Kind) -> Counter {
        switch kind {
        case .handled: return handled
        case .unhandled: return unhandled
        case .interrupted: return interrupted
        case .cycleDetected: return cycleDetected
        case .cancelled: return cancelled
        case .timedOut: return timedOut
        case .failed: return failed
        case .rejected: return rejected
        }
    }
}

/// The send timer and the start times of the sends under way, by event id, on the tracer's
/// clock.
private final class SendTimer: Sendable {
    private let timer: CoreMetrics.Timer
    /// The time since the timer was made, on its clock: what a start time is.
    private let elapsed: @Sendable () -> Duration
    private let starts = Locked<[EventID: Duration]>([:])

    init(_ timer: CoreMetrics.Timer, clock: any Clock<Duration>) {
        self.timer = timer
        self.elapsed = Self.elapsed(on: clock)
    }

    /// Reads `clock`'s time since now (its instants are of its own type, so the start times
    /// are kept as offsets from one of them).
    private static func elapsed<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    func started(_ id: EventID) {
        let now = elapsed()
        starts.withLock { $0[id] = now }
    }

    func finished(_ id: EventID) {
        guard let start = starts.withLock({ $0.removeValue(forKey: id) }) else { return }
        timer.recordNanoseconds((elapsed() - start).nanoseconds)
    }

    var count: Int { starts.withLock { $0.count } }
}

/// The hop timers, by responder label, up to a limit of labels.
///
/// A dictionary under a mutex: looked up at every hop, it takes the lock and hashes the label.
/// A look-up that writes nothing (set-once chains of `AtomicLazyReference`s) was tried and
/// measured slower (the benchmarks' scenario 7d): its retains of the shared nodes cost more than the
/// uncontended lock.
private final class HopTimerTable: Sendable {
    private struct State {
        var timers: [String: CoreMetrics.Timer] = [:]
        /// The timer of the labels beyond the limit, made when the first one is seen.
        var other: CoreMetrics.Timer?
    }

    private let label: String
    private let dimensions: [(String, String)]
    private let limit: Int
    private let factory: any MetricsFactory
    private let state = Locked(State())

    /// A timer per responder label, for the first `limit` labels.
    init(label: String, dimensions: [(String, String)], limit: Int, factory: any MetricsFactory) {
        self.label = label
        self.dimensions = dimensions
        self.limit = limit
        self.factory = factory
    }

    /// The timer of the hops of responders labelled `responder`.
    func timer(for responder: String) -> CoreMetrics.Timer {
        state.withLock { state in
            if let timer = state.timers[responder] { return timer }
            if state.timers.count < limit {
                let timer = make(responder)
                state.timers[responder] = timer
                return timer
            }
            if let other = state.other { return other }
            let other = make(MetricNames.otherResponders)
            state.other = other
            return other
        }
    }

    private func make(_ responder: String) -> CoreMetrics.Timer {
        CoreMetrics.Timer(
            label: label, dimensions: dimensions + [(MetricNames.responderDimension, responder)],
            factory: factory)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64`'s bounds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflowAgain { return seconds < 0 ? .min : .max }
        return total
    }
}
