#if RemoteAndStores
    import Synchronization

    /// Times each job from its acceptance (the insert committed) to its end (its finish committed,
    /// as the producer heard it), and counts the ends.
    final class PostgresLatencyRecorder<ID: Hashable & Sendable>: Sendable {
        private struct State {
            var accepted: [ID: ContinuousClock.Instant] = [:]
            /// Ends heard before their acceptance was recorded (the producer's task had not run yet).
            var early: [ID: ContinuousClock.Instant] = [:]
            var latencies: [Duration] = []
            var first: ContinuousClock.Instant?
            var last: ContinuousClock.Instant?
            var lastPosted: ContinuousClock.Instant?
        }

        private let state = Mutex(State())

        /// Records `ids` as accepted at `instant`.
        func accepted(_ ids: some Sequence<ID>, at instant: ContinuousClock.Instant) {
            state.withLock { state in
                if state.first == nil { state.first = instant }
                for id in ids {
                    if let end = state.early.removeValue(forKey: id) {
                        state.latencies.append(max(.zero, instant.duration(to: end)))
                    } else {
                        state.accepted[id] = instant
                    }
                }
            }
        }

        /// Records `ids` as done at `instant`; an identifier not accepted here is ignored unless its
        /// acceptance comes later.
        func done(_ ids: some Sequence<ID>, at instant: ContinuousClock.Instant) {
            state.withLock { state in
                for id in ids {
                    if let start = state.accepted.removeValue(forKey: id) {
                        state.latencies.append(start.duration(to: instant))
                        state.last = instant
                    } else {
                        state.early[id] = instant
                    }
                }
            }
        }

        /// Records that the producer's listener heard a `.posted` signal at `instant`.
        func heardPosted(at instant: ContinuousClock.Instant) {
            state.withLock { $0.lastPosted = instant }
        }

        /// When the producer's listener last heard a `.posted` signal.
        var lastPosted: ContinuousClock.Instant? { state.withLock { $0.lastPosted } }

        /// How many jobs ended.
        var doneCount: Int { state.withLock { $0.latencies.count } }

        /// The time from the first acceptance to the last end, and the latencies, sorted.
        func summary() -> (elapsed: Duration, latencies: [Duration]) {
            state.withLock { state in
                let elapsed =
                    state.first.flatMap { first in state.last.map { first.duration(to: $0) } } ?? .zero
                return (elapsed, state.latencies.sorted())
            }
        }
    }
#endif
