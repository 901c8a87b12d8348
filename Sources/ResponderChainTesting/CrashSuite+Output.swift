extension CrashSuite {
    /// How one run of the child ended, and what it wrote.
    ///
    /// The child writes to standard output `recovered <count>` once it knows how many posts an
    /// earlier run left unfinished, `accepted <seq> <event id>` for each post accepted, and
    /// `skipped <seq>` for a delivery whose effect the inbox found applied already; to standard
    /// error `reached <point>` just before the kill.
    public struct Output: Sendable {
        /// How a child process ended.
        public enum Ending: Sendable, Hashable, CustomStringConvertible {
            /// It exited with this status.
            case exited(Int32)
            /// A signal with this number ended it.
            case signalled(Int32)

            /// `exit <status>` or `signal <number>`.
            public var description: String {
                switch self {
                case .exited(let status): "exit \(status)"
                case .signalled(let signal): "signal \(signal)"
                }
            }
        }

        /// How the process ended.
        public let ending: Ending
        /// What it wrote to standard output.
        public let standardOutput: String
        /// What it wrote to standard error.
        public let standardError: String

        /// A run's output.
        public init(ending: Ending, standardOutput: String, standardError: String) {
            self.ending = ending
            self.standardOutput = standardOutput
            self.standardError = standardError
        }

        /// Whether it died of SIGKILL (signal 9).
        public var diedOfSIGKILL: Bool { ending == .signalled(9) }
        /// Whether it exited with status 0.
        public var exitedCleanly: Bool { ending == .exited(0) }

        /// The `accepted <seq> <event id>` lines: event identifiers by sequence number.
        public var accepted: [Int: String] {
            var accepted: [Int: String] = [:]
            for line in standardOutput.split(separator: "\n") {
                let words = line.split(separator: " ", maxSplits: 2)
                if words.count == 3, words[0] == "accepted", let seq = Int(words[1]) {
                    accepted[seq] = String(words[2])
                }
            }
            return accepted
        }

        /// How many posts the run recovered (0 if it died before it knew).
        public var recovered: Int {
            standardOutput.split(separator: "\n").lazy.compactMap { line in
                line.hasPrefix("recovered ") ? Int(line.dropFirst("recovered ".count)) : nil
            }.first ?? 0
        }

        /// How many deliveries the inbox kept from applying an effect twice.
        public var skipped: Int {
            standardOutput.split(separator: "\n").count { $0.hasPrefix("skipped ") }
        }

        /// How it ended and what it wrote to standard error, for a failure's message.
        public var summary: String { "\(ending); stderr: \(standardError)" }
    }
}
