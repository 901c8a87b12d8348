/// What a run of the child does, from its command line:
/// `sqlite-crash-child <database> <run> <first-seq> <count> <point|none> <occurrence> <seed>`.
struct ChildArguments: Sendable {
    /// The SQLite file.
    let path: String
    /// The run's number (for messages).
    let run: Int
    /// The sequence numbers this run posts.
    let seqs: Range<Int>
    /// Where it crashes; `nil` for a clean run (it handles everything and shuts down).
    let point: CrashPoint?
    /// At which occurrence of ``point`` it crashes.
    let occurrence: Int
    /// Varies the interleaving of the posters, reproducibly.
    let seed: UInt64

    /// What was wrong with the command line.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws(Invalid) {
        let usage =
            "usage: sqlite-crash-child <database> <run> <first-seq> <count> <point|none> <occurrence> <seed>"
        guard arguments.count == 7 else { throw Invalid(description: usage) }
        guard let run = Int(arguments[1]), let first = Int(arguments[2]), let count = Int(arguments[3]),
            first >= 0, count >= 0, let occurrence = Int(arguments[5]), occurrence >= 1,
            let seed = UInt64(arguments[6])
        else { throw Invalid(description: usage) }
        if arguments[4] == "none" {
            point = nil
        } else if let point = CrashPoint(rawValue: arguments[4]) {
            self.point = point
        } else {
            throw Invalid(description: "unknown crash point \(arguments[4]); \(usage)")
        }
        path = arguments[0]
        self.run = run
        seqs = first..<(first + count)
        self.occurrence = occurrence
        self.seed = seed
    }
}
