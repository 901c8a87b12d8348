/// What the command line asked for.
///
/// ```
/// peer-bench [--quick] [--filter nio|opencombine] [--json FILE] [--svg FILE]
/// ```
struct Options: Sendable {
    /// A seconds-long pass (CI): short repetitions, few of them.
    var quick = false
    /// Run only the peers whose id contains this text.
    var filter: String?
    /// Where to write the results as a JSON array (responder-bench's format).
    var jsonPath: String?
    /// Where to write a chart of ns per hop against depth (SVG).
    var svgPath: String?

    /// How long one repetition should last at least.
    var repetitionTarget: Duration { quick ? .milliseconds(2) : .milliseconds(100) }
    /// How many timed repetitions to take the median of.
    var repetitions: Int { quick ? 3 : 7 }
    /// The chain depths.
    var depths: [Int] { [1, 8, 64, 512] }

    /// The peers `filter` selects (all of them without one).
    var peers: [Peer] {
        guard let filter = filter?.lowercased() else { return Peer.allCases }
        return Peer.allCases.filter { $0.rawValue.contains(filter) }
    }

    static let usage = """
        usage: peer-bench [--quick] [--filter nio|opencombine] [--json FILE] [--svg FILE]

          --quick            a seconds-long pass (checks the benchmark works)
          --filter PEER      compare with one peer only: nio or opencombine
          --json FILE        also write the results as a JSON array (responder-bench's keys)
          --svg FILE         also write a chart of ns per hop against depth (log scales)
          --help             show this help
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var remaining = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(message: "\(flag) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--filter": options.filter = try value(for: argument)
            case "--json": options.jsonPath = try value(for: argument)
            case "--svg": options.svgPath = try value(for: argument)
            case "--help", "-h": throw UsageError(message: nil)
            default: throw UsageError(message: "unknown argument \(argument)")
            }
        }
        return options
    }
}

/// A command line that could not be understood (or a request for help).
struct UsageError: Error {
    /// What was wrong; `nil` when help was asked for.
    let message: String?
}
