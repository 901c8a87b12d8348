extension EventSystem {
    /// An instant on an event system's clock: what a deadline names (``SendOptions/deadline``,
    /// ``EventContext/deadline``), read from ``EventSystem/now``.
    ///
    /// An instant is the time since its clock's origin. Every system on the default
    /// `ContinuousClock` shares one origin, so their instants compare with one another; a test
    /// clock's instants count from the clock's own zero; any other clock's count from the
    /// moment the system first read it. To carry a deadline to a system on another clock, carry
    /// the time left instead (``EventContext/timeLeft``, as a ``SendOptions/timeout``).
    ///
    /// ```swift
    /// let options = SendOptions(deadline: system.now + .seconds(2))
    /// ```
    ///
    /// An instant has a fixed layout (unlike `ContinuousClock.Instant`, which is resilient), so
    /// per-send state that holds one stays cheap to copy.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time from the clock's origin to this instant.
        public var offset: Duration

        /// The instant `offset` after the clock's origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The instant `duration` after `instant`.
        public static func + (instant: Instant, duration: Duration) -> Instant {
            instant.advanced(by: duration)
        }

        /// The instant `duration` before `instant`.
        public static func - (instant: Instant, duration: Duration) -> Instant {
            instant.advanced(by: .zero - duration)
        }

        /// The time from `earlier` to `later`.
        public static func - (later: Instant, earlier: Instant) -> Duration {
            later.offset - earlier.offset
        }

        /// The offset from the clock's origin, as in `"12.5 seconds"`.
        public var description: String { "\(offset)" }

        /// Not available: an instant belongs to a clock, and deadlines are read from the
        /// event system's.
        @available(
            *, unavailable,
            message:
                "an instant belongs to a clock: read the event system's (system.now + .seconds(2)), or give SendOptions a timeout"
        )
        public static var now: Instant { Instant(offset: .zero) }
    }
}
