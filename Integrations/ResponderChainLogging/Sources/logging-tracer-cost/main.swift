// logging-tracer-cost: what `LoggingTracer` costs per hop when its lines are below the logger's
// level, against the same chain with no tracer, in the same run. Not a test: timings are
// printed, never asserted.
//
//   swift run -c release --package-path Integrations/ResponderChainLogging logging-tracer-cost

import Logging
import ResponderChain
import ResponderChainLogging

struct Probe: Event {
    var value: Int
}

/// A responder on its own executor; only the top of the chain handles the probe.
actor Link: Responder {
    nonisolated let isTop: Bool
    private let parent: Link?
    private var seen = 0

    init(parent: Link?) {
        self.parent = parent
        self.isTop = parent == nil
    }

    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { isTop }

    static let strategies = Strategies<Link> {
        $0.on(Probe.self) { link, event, _ in
            link.seen &+= event.value
            return link.isTop ? .handled : .pass
        }
    }

    /// A chain of `depth` links; returns the bottom one.
    static func chain(depth: Int) -> Link {
        var current = Link(parent: nil)
        for _ in 1..<depth { current = Link(parent: current) }
        return current
    }
}

/// A handler that writes nothing, at the level it is given.
struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}

/// `iterations` awaited sends from `bottom`; nanoseconds per send.
@concurrent
func measure(_ bottom: Link, tracer: (any Tracer)?, iterations: Int) async -> Double {
    let options = SendOptions(tracer: tracer)
    let start = ContinuousClock.now
    for index in 0..<iterations {
        _ = await bottom.send(Probe(value: index), options: options)
    }
    let (seconds, attoseconds) = start.duration(to: .now).components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
}

func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

func logger(at level: Logger.Level) -> Logger {
    Logger(label: "events") { _ in DiscardingLogHandler(logLevel: level) }
}

let cases: [(name: String, tracer: (any Tracer)?)] = [
    ("no tracer", nil),
    (
        "logger at error, tagsHandlerLines: false (declined)",
        LoggingTracer(logger: logger(at: .error), tagsHandlerLines: false)
    ),
    ("logger at error, tagging handler lines", LoggingTracer(logger: logger(at: .error))),
    ("logger at info (debug lines filtered), tagging", LoggingTracer(logger: logger(at: .info))),
]
let repetitions = 9
print("logging-tracer-cost: medians of \(repetitions) alternated repetitions; +ns/hop against no tracer")
for depth in [8, 64] {
    let bottom = Link.chain(depth: depth)
    let iterations = 40_000 / depth
    var samples = Array(repeating: [Double](), count: cases.count)
    for repetition in 0...repetitions {
        for (index, item) in cases.enumerated() {
            let perSend = await measure(bottom, tracer: item.tracer, iterations: iterations)
            if repetition > 0 { samples[index].append(perSend / Double(depth)) }  // 0: warm-up
        }
    }
    let baseline = median(samples[0])
    for (index, item) in cases.enumerated() {
        let perHop = median(samples[index])
        let extra =
            index == 0
            ? ""
            : "  (+\(Int((perHop - baseline).rounded())) ns/hop, ×\((perHop / baseline * 100).rounded() / 100))"
        print("D=\(depth)  \(item.name): \(Int(perHop.rounded())) ns/hop\(extra)")
    }
}
