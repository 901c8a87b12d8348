extension EventSystem {
    /// What a system's shutdown did with the posted events it held (see
    /// ``EventSystem/shutDown(gracePeriod:)``).
    ///
    /// Every post outstanding when the shutdown began is counted once: `finished + endedEarly +
    /// inProgress + kept` of them. The report is made once, when the drain completes; every later call to
    /// shut down the system returns it unchanged.
    ///
    /// ```swift
    /// let report = await system.shutDown(gracePeriod: .seconds(5))
    /// logger.info("drained: \(report.finished) finished, \(report.endedEarly) ended early")
    /// ```
    public struct ShutdownReport: Hashable, Sendable, CustomStringConvertible {
        /// Posts that were outstanding when the shutdown began and ended on their own during the
        /// grace period (in whatever outcome they reached: handled, unhandled, failed, …).
        public internal(set) var finished: Int
        /// Posts still outstanding when the grace period ended: each ended
        /// ``Outcome/cancelled(_:)`` with reason ``Outcome/Stop/Reason/shutdown`` and went to the
        /// dead-letter sink.
        public internal(set) var endedEarly: Int
        /// Posts refused since the shutdown began (ended ``Outcome/rejected(_:)`` with reason
        /// ``Outcome/Rejection/Reason/shuttingDown``), counted until the report was made. Posters
        /// that were waiting for room are among them. Posts refused later are not counted: the
        /// report does not change once made.
        public internal(set) var refused: Int
        /// Posts whose own delivery called for the shutdown (from a handler, a wrapper, the tracer or
        /// the dead-letter sink of that post), still running when the report was made: the drain
        /// cannot wait for them, since they wait for it. Each ends when its handler returns, with the
        /// outcome it reaches then. 0 unless the shutdown was called from inside a delivery.
        public internal(set) var inProgress: Int
        /// Posts still queued when the shutdown began, in a system with a store
        /// (``EventSystem/Storage/store(_:)``): they were not delivered here, but kept in the
        /// store for the next start (each ticket ended ``Outcome/cancelled(_:)`` with reason
        /// ``Outcome/Stop/Reason/keptForNextStart``; none went to the dead letters). 0 in a
        /// system that keeps its posts in memory.
        public internal(set) var kept: Int

        /// A report with these counts.
        public init(finished: Int, endedEarly: Int, refused: Int, inProgress: Int = 0, kept: Int = 0) {
            self.finished = finished
            self.endedEarly = endedEarly
            self.refused = refused
            self.inProgress = inProgress
            self.kept = kept
        }

        /// `3 finished, 1 ended early, 0 refused` (and `, 1 in progress`, `, 5 kept` when there
        /// are any).
        public var description: String {
            var counts = "\(finished) finished, \(endedEarly) ended early, \(refused) refused"
            if inProgress != 0 { counts += ", \(inProgress) in progress" }
            if kept != 0 { counts += ", \(kept) kept" }
            return counts
        }
    }
}
