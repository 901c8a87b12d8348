extension EventSystem {
    /// When a send or post that did not end handled is tried again, how often, and after how
    /// long, on the event system's clock.
    ///
    /// A policy retries the outcomes in ``retrying`` (by default ``Outcome/failed(_:)``,
    /// ``Outcome/timedOut(_:)`` and ``Outcome/interrupted(_:)``) until the event has been tried
    /// ``maximumAttempts`` times. Never retried, whatever the policy: ``Outcome/handled(_:)``,
    /// ``Outcome/unhandled(_:)`` (nobody handles it: trying again changes nothing),
    /// ``Outcome/cycleDetected(_:)``, ``Outcome/rejected(_:)`` (it was never let in, or would wait
    /// for itself), and ``Outcome/cancelled(_:)`` (someone asked for it to stop).
    ///
    /// Before attempt *n* + 1 the event waits *initial* × *multiplier*^(*n* − 1), at most
    /// ``maximumBackoff``, then shifted by up to ± ``jitter`` of itself. The jitter is drawn from
    /// the policy's ``seed``, the event's identifier and the attempt's number, not from a shared
    /// generator: the same policy gives the same event the same schedule, in every process, so a
    /// test can compute it (``backoff(before:of:)``) and a store's redelivery keeps it.
    ///
    /// A retry never outlives its sender: it is not made when it would begin at or after the
    /// send's deadline (the event ends with its last attempt's outcome), and a cancellation
    /// while it waits ends the event ``Outcome/cancelled(_:)`` at once. A post's retries keep its
    /// place in its lane: the posts behind it in its ordering key (or sender) wait until it
    /// succeeds or has no attempts left (strict order; see ``EventSystem/RetryPolicies``).
    ///
    /// ```swift
    /// let system = EventSystem(retryPolicies: EventSystem.RetryPolicies(standard: .default))
    /// var payments = EventSystem.RetryPolicy(maximumAttempts: 8, initialBackoff: .milliseconds(200))
    /// payments.retrying = [.failed]
    /// ```
    public struct RetryPolicy: Hashable, Sendable, CustomStringConvertible {
        /// An outcome a policy may retry.
        public enum Condition: Hashable, Sendable, CaseIterable {
            /// A handler threw (``Outcome/failed(_:)``).
            case failed
            /// A deadline passed (``Outcome/timedOut(_:)``); never retried past the send's own
            /// deadline.
            case timedOut
            /// The chain broke before a root (``Outcome/interrupted(_:)``): a link to another
            /// process lost or unreachable, a responder detached.
            case interrupted
        }

        /// How many times the event is tried in all, the first attempt included; at least 1
        /// (1 never retries).
        public var maximumAttempts: Int {
            didSet { maximumAttempts = max(1, maximumAttempts) }
        }
        /// Which outcomes are tried again.
        public var retrying: Set<Condition>
        /// The wait before the second attempt; at least zero.
        public var initialBackoff: Duration {
            didSet { initialBackoff = max(.zero, initialBackoff) }
        }
        /// How much each wait grows over the one before; at least 1.
        public var multiplier: Double {
            didSet { multiplier = Self.valid(multiplier: multiplier) }
        }
        /// The longest wait, before jitter; at least ``initialBackoff``.
        public var maximumBackoff: Duration {
            didSet { maximumBackoff = max(initialBackoff, maximumBackoff) }
        }
        /// How far a wait may be shifted either way, as a fraction of it, in `0...0.5`.
        public var jitter: Double {
            didSet { jitter = Self.valid(jitter: jitter) }
        }
        /// What the jitter is drawn from, with the event's identifier and the attempt's number.
        public var seed: UInt64

        /// A policy; values out of range are brought to the nearest one allowed (as each
        /// property says).
        ///
        /// - Parameters:
        ///   - maximumAttempts: Attempts in all, the first included (at least 1).
        ///   - retrying: The outcomes tried again.
        ///   - initialBackoff: The wait before the second attempt.
        ///   - multiplier: How much each wait grows over the one before (at least 1).
        ///   - maximumBackoff: The longest wait, before jitter.
        ///   - jitter: How far a wait may be shifted either way, as a fraction of it (0...0.5).
        ///   - seed: What the jitter is drawn from.
        public init(
            maximumAttempts: Int = 10,
            retrying: Set<Condition> = Set(Condition.allCases),
            initialBackoff: Duration = .seconds(1),
            multiplier: Double = 2,
            maximumBackoff: Duration = .seconds(300),
            jitter: Double = 0.1,
            seed: UInt64 = 0
        ) {
            self.maximumAttempts = max(1, maximumAttempts)
            self.retrying = retrying
            let initial = max(.zero, initialBackoff)
            self.initialBackoff = initial
            self.multiplier = Self.valid(multiplier: multiplier)
            self.maximumBackoff = max(initial, maximumBackoff)
            self.jitter = Self.valid(jitter: jitter)
            self.seed = seed
        }

        /// Ten attempts, waits from 1 s doubling to 5 min, ± 10 % jitter; retries failed, timed
        /// out and interrupted outcomes.
        public static let `default` = RetryPolicy()

        /// Whether this policy tries `outcome` again (attempts left aside).
        public func retries(_ outcome: Outcome) -> Bool {
            switch outcome {
            case .failed: retrying.contains(.failed)
            case .timedOut: retrying.contains(.timedOut)
            case .interrupted: retrying.contains(.interrupted)
            case .handled, .unhandled, .cycleDetected, .cancelled, .rejected: false
            }
        }

        /// The wait before attempt `attempt` (2 or more) of the event `id`: the same for the
        /// same policy, event and attempt, wherever it is computed.
        ///
        /// ```swift
        /// let policy = EventSystem.RetryPolicy(jitter: 0)
        /// policy.backoff(before: 2, of: id)   // 1 s
        /// policy.backoff(before: 4, of: id)   // 4 s
        /// ```
        public func backoff(before attempt: Int, of id: EventID) -> Duration {
            guard attempt >= 2 else { return .zero }
            let initial = Self.seconds(initialBackoff)
            let cap = Self.seconds(maximumBackoff)
            // Grown one attempt at a time; past the cap (or with no growth) nothing changes.
            var base = initial
            var next = 2
            while next < attempt, base < cap, multiplier > 1 {
                base *= multiplier
                next += 1
            }
            base = min(base, cap)
            let draw = Self.unitDraw(seed: seed, id: id, attempt: attempt)  // in [0, 1)
            let shifted = base * (1 + jitter * (2 * draw - 1))
            return .nanoseconds(Int64((shifted * 1e9).rounded()))
        }

        /// `10 attempts, 1.0 s × 2 up to 300.0 s ± 10%, retrying failed, interrupted, timedOut`.
        public var description: String {
            let conditions = Condition.allCases.filter(retrying.contains).map { "\($0)" }
            return
                "\(maximumAttempts) attempts, \(Self.seconds(initialBackoff)) s × \(multiplier) up to \(Self.seconds(maximumBackoff)) s ± \(Int((jitter * 100).rounded()))%, retrying \(conditions.isEmpty ? "nothing" : conditions.joined(separator: ", "))"
        }

        private static func valid(multiplier: Double) -> Double {
            multiplier.isFinite ? max(1, multiplier) : 1
        }

        private static func valid(jitter: Double) -> Double {
            jitter.isFinite ? min(0.5, max(0, jitter)) : 0
        }

        private static func seconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) + Double(attoseconds) / 1e18
        }

        /// A number in `[0, 1)` decided by its three inputs alone (SplitMix64's finalizer over
        /// their mix).
        private static func unitDraw(seed: UInt64, id: EventID, attempt: Int) -> Double {
            var mixed = seed
            for word in [id.epoch, id.sequence, UInt64(truncatingIfNeeded: attempt)] {
                mixed = (mixed ^ word) &+ 0x9E37_79B9_7F4A_7C15
                mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                mixed ^= mixed >> 31
            }
            return Double(mixed >> 11) / Double(UInt64(1) << 53)
        }
    }
}
