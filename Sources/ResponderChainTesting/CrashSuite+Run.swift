public import ResponderChain

extension CrashSuite {
    /// What one run of a crash suite's child does: the sequence numbers it posts, and where it
    /// crashes. A child reads it from the end of its command line (``init(parsing:)``), after
    /// its own arguments that say where its database is.
    public struct Run: Sendable, Hashable {
        /// The run's number (for messages).
        public let number: Int
        /// Where it crashes; `nil` for a clean run (it handles everything and shuts down).
        public let point: CrashPoint?
        /// At which occurrence of ``point`` it crashes.
        public let occurrence: Int
        /// The sequence numbers this run posts.
        public let seqs: Range<Int>
        /// Varies the interleaving of the posters and the handlers' pace, reproducibly.
        public let seed: UInt64

        /// A run numbered `number` that posts `seqs` and crashes at occurrence `occurrence` of
        /// `point` (never, if `point` is `nil`).
        public init(number: Int, point: CrashPoint?, occurrence: Int, seqs: Range<Int>, seed: UInt64) {
            self.number = number
            self.point = point
            self.occurrence = occurrence
            self.seqs = seqs
            self.seed = seed
        }

        /// The usage of the run's part of a child's command line.
        public static let usage = "<run> <first-seq> <count> <point|none> <occurrence> <seed>"

        /// The run's part of a child's command line, which ``init(parsing:)`` reads back.
        public var arguments: [String] {
            [
                "\(number)", "\(seqs.lowerBound)", "\(seqs.count)", point?.rawValue ?? "none",
                "\(occurrence)",
                "\(seed)",
            ]
        }

        /// A command line that is not a run's.
        public struct InvalidArguments: Error, CustomStringConvertible {
            /// What was wrong, with the usage.
            public let description: String
        }

        /// The run that ``arguments`` describes.
        ///
        /// - Throws: ``InvalidArguments`` for anything else.
        public init(parsing arguments: some Collection<String>) throws(InvalidArguments) {
            let arguments = Array(arguments)
            let usage = "expected \(Self.usage)"
            guard arguments.count == 6, let number = Int(arguments[0]), let first = Int(arguments[1]),
                let count = Int(arguments[2]), first >= 0, count >= 0, let occurrence = Int(arguments[4]),
                occurrence >= 1, let seed = UInt64(arguments[5])
            else { throw InvalidArguments(description: usage) }
            let point: CrashPoint?
            if arguments[3] == "none" {
                point = nil
            } else if let named = CrashPoint(rawValue: arguments[3]) {
                point = named
            } else {
                throw InvalidArguments(description: "unknown crash point \(arguments[3]); \(usage)")
            }
            self.init(
                number: number, point: point, occurrence: occurrence, seqs: first..<(first + count),
                seed: seed)
        }

        /// Posts the run's work from `entry`, one poster per key, each posting its key's share
        /// in order, interleaved by the seed; writes `accepted <seq> <event id>` (the full
        /// form, `EventID.debugDescription`) to standard output as soon as a `post` returns
        /// accepted, `rejected <seq> <reason>` to standard error otherwise. Returns the
        /// tickets.
        public func post(from entry: some Responder) async -> [Ticket] {
            await withTaskGroup(of: [Ticket].self) { group in
                for lane in 0..<CrashSuite.keys {
                    let seqs = self.seqs.filter { $0 % CrashSuite.keys == lane }
                    group.addTask {
                        var tickets: [Ticket] = []
                        for seq in seqs {
                            for _ in 0..<((seed &+ UInt64(seq) &* 2_654_435_761) % 3) { await Task.yield() }
                            let work = Work(seq: seq)
                            let ticket = await entry.post(work, key: work.key)
                            if case .rejected(let rejection) = ticket.finishedOutcome {
                                CrashInjection.writeLine("rejected \(seq) \(rejection)", to: 2)
                            } else {
                                CrashInjection.writeLine(
                                    "accepted \(seq) \(ticket.eventID.debugDescription)", to: 1)
                            }
                            tickets.append(ticket)
                        }
                        return tickets
                    }
                }
                var all: [Ticket] = []
                for await tickets in group { all += tickets }
                return all
            }
        }

        /// A varying, seeded while for the handler of `work` to take before its effect (yields,
        /// no clock): with a key's order broken, a later post of the key would overtake an
        /// earlier one.
        public func pace(_ work: Work) async {
            for _ in 0..<(seed &+ UInt64(work.seq) &* 0x9E37_79B9) % 256 { await Task.yield() }
        }
    }
}
