extension SQLitePostStore {
    /// What a post accepted by the store survives, named for the failure: both keep the file in
    /// write-ahead-log mode; they differ in when the log is flushed to the disk.
    ///
    /// ```swift
    /// let store = try SQLitePostStore(path: "orders.sqlite", events: events, durability: .powerLoss)
    /// ```
    public enum Durability: Hashable, Sendable, CustomStringConvertible {
        /// An accepted post survives the process being killed (a crash, an out-of-memory kill, a
        /// restart by the orchestrator), but the last commits before the machine loses power or
        /// its kernel panics may be lost: the log is written at each commit and flushed to the
        /// disk at checkpoints (`PRAGMA synchronous=NORMAL`). Several times the throughput of
        /// ``powerLoss``.
        case processCrash
        /// An accepted post survives a power loss too: each commit of accepted posts waits for
        /// the disk to flush the log (`PRAGMA synchronous=FULL`), a few milliseconds, shared by
        /// every post of the batch. Finishes ride on the next such flush (a finish lost to a
        /// power loss only means its post is delivered again).
        case powerLoss

        /// The value of `PRAGMA synchronous` the mode sets (1 or 2).
        public var synchronous: Int {
            switch self {
            case .processCrash: 1
            case .powerLoss: 2
            }
        }

        /// `processCrash (synchronous=NORMAL)`.
        public var description: String {
            switch self {
            case .processCrash: "processCrash (synchronous=NORMAL)"
            case .powerLoss: "powerLoss (synchronous=FULL)"
            }
        }
    }
}
