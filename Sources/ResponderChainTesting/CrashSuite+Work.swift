public import ResponderChain

extension CrashSuite {
    /// One unit of the crash suite's work: its sequence number decides its ordering key
    /// (`key-<seq % 4>`), and its effect is one row of the child's `effect` table. A store that
    /// encodes its events registers it first (the children use the name `work`).
    public struct Work: Event, Codable, Hashable {
        /// The work's sequence number, unique in the suite.
        public let seq: Int

        /// The work numbered `seq`.
        public init(seq: Int) {
            self.seq = seq
        }

        /// The ordering key it is posted under.
        public var key: EventSystem.OrderingKey { EventSystem.OrderingKey("key-\(seq % CrashSuite.keys)") }
    }
}
