/// What the command line asked for.
///
/// ```
/// remote-bench [--quick]
/// ```
struct Options: Sendable {
    /// A seconds-long pass over every path (CI): few iterations, checks that every path works.
    var quick = false

    /// How long one timed repetition should last at least.
    var repetitionTarget: Duration { quick ? .milliseconds(2) : .milliseconds(150) }
    /// How many timed repetitions to take the median of.
    var repetitions: Int { quick ? 2 : 9 }
    /// Iterations run before a path is calibrated: the connection, the stream, the caches.
    var warmUp: Int { quick ? 8 : 300 }
    /// How many senders (lanes, or concurrent callers) the concurrent rows use.
    var concurrency: Int { 4 }

    static let usage = """
        usage: remote-bench [--quick]

          --quick     a few iterations of every path (checks that the benchmark works; seconds)
          --help      show this help

        Build it in release for figures that mean something:
          swift run -c release --package-path Integrations/ResponderChainGRPC remote-bench
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        for argument in arguments {
            switch argument {
            case "--quick": options.quick = true
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
