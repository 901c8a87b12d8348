import ResponderChainTesting

/// What a run of the child does, from its command line:
/// `sqlite-crash-child <database> <run> <first-seq> <count> <point|none> <occurrence> <seed>`.
struct ChildArguments: Sendable {
    /// The SQLite file.
    let path: String
    /// The posts it makes and where it crashes.
    let run: CrashSuite.Run

    /// What was wrong with the command line.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws(Invalid) {
        let usage = "usage: sqlite-crash-child <database> \(CrashSuite.Run.usage)"
        guard let path = arguments.first else { throw Invalid(description: usage) }
        do {
            run = try CrashSuite.Run(parsing: arguments.dropFirst())
        } catch {
            throw Invalid(description: "\(error); \(usage)")
        }
        self.path = path
    }
}
