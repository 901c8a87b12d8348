/// What a system's shutdown did with the posted events it held (see
/// ``EventSystem/shutDown(gracePeriod:)``).
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
    /// that were waiting for room are among them.
    public internal(set) var refused: Int

    /// A report with these counts.
    public init(finished: Int, endedEarly: Int, refused: Int) {
        self.finished = finished
        self.endedEarly = endedEarly
        self.refused = refused
    }

    /// `3 finished, 1 ended early, 0 refused`.
    public var description: String {
        "\(finished) finished, \(endedEarly) ended early, \(refused) refused"
    }
}
