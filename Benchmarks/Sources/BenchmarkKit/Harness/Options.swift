/// What the command line asked for.
///
/// ```
/// responder-bench [--quick] [--filter NAME] [--json FILE] [--svg FILE] [--markdown FILE]
/// ```
struct Options: Sendable {
    /// A seconds-long pass over every scenario (CI): short repetitions, few of them.
    var quick = false
    /// Run only the scenarios whose identifier or title contains this text.
    var filter: String?
    /// Where to write the results as a JSON array.
    var jsonPath: String?
    /// Where to write the ns-per-hop chart as SVG.
    var svgPath: String?
    /// Where to write the table as Markdown (for Docs/Benchmarks.md).
    var markdownPath: String?

    /// How long one repetition should last at least, in nanoseconds.
    var repetitionTarget: Duration { quick ? .milliseconds(2) : .milliseconds(100) }
    /// How many timed repetitions to take the median of.
    var repetitions: Int { quick ? 2 : 7 }
    /// Chain depths for scenarios that involve a chain.
    var depths: [Int] { [1, 8, 64, 512] }

    static let usage = """
        usage: responder-bench [--quick] [--filter NAME] [--json FILE] [--svg FILE] [--markdown FILE]

          --quick            a seconds-long pass over every scenario (checks the benchmark works)
          --filter NAME      run only scenarios whose id or title contains NAME (actors, hit-test,
                             peers, metrics-tracer, remote, …)
          --json FILE        also write the results as a JSON array
          --svg FILE         also write a chart of ns/hop against depth (log scale)
          --markdown FILE    also write the table as Markdown
          --list             list the scenarios and exit
          --help             show this help
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> (Options, listOnly: Bool) {
        var options = Options()
        var listOnly = false
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
            case "--markdown": options.markdownPath = try value(for: argument)
            case "--list": listOnly = true
            case "--help", "-h": throw UsageError(message: nil)
            default: throw UsageError(message: "unknown argument \(argument)")
            }
        }
        return (options, listOnly)
    }
}

/// A command line that could not be understood (or a request for help).
struct UsageError: Error {
    /// What was wrong; `nil` when help was asked for.
    let message: String?
}
