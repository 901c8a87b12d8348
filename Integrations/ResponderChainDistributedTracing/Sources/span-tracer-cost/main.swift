// span-tracer-cost: what `SpanTracer` costs per hop when no tracing backend is installed
// (`InstrumentationSystem` not bootstrapped, so its tracer is swift-distributed-tracing's
// `NoOpTracer`), against the same chain with no tracer, in the same run. Not a test: timings
// are printed, never asserted.
//
//   swift run -c release --package-path Integrations/ResponderChainDistributedTracing span-tracer-cost

import ResponderChain
import ResponderChainDistributedTracing
import Tracing

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

/// A sender's request context: what a server handler would have when it sends.
enum RequestKey: ServiceContextKey {
    typealias Value = String
}

/// `iterations` awaited sends from `bottom`, with `context` bound as the sender's
/// `ServiceContext` when given; nanoseconds per send.
@concurrent
func measure(
    _ bottom: Link, tracer: (any ResponderChain.Tracer)?, context: ServiceContext?, iterations: Int
) async -> Double {
    let options = SendOptions(tracer: tracer)
    func run() async -> Duration {
        let start = ContinuousClock.now
        for index in 0..<iterations {
            _ = await bottom.send(Probe(value: index), options: options)
        }
        return start.duration(to: .now)
    }
    let elapsed: Duration
    if let context {
        elapsed = await ServiceContext.withValue(context) { await run() }
    } else {
        elapsed = await run()
    }
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
}

func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

var request = ServiceContext.topLevel
request[RequestKey.self] = "req-1"
let cases: [(name: String, tracer: (any ResponderChain.Tracer)?, context: ServiceContext?)] = [
    ("no tracer", nil, nil),
    ("SpanTracer, no backend, no sender context (declined)", SpanTracer(), nil),
    ("SpanTracer, no backend, sender has a context", SpanTracer(), request),
    ("SpanTracer(tracer: NoOpTracer()), sender has a context", SpanTracer(tracer: NoOpTracer()), request),
]
let repetitions = 9
print("span-tracer-cost: medians of \(repetitions) alternated repetitions; +ns/hop against no tracer")
for depth in [8, 64] {
    let bottom = Link.chain(depth: depth)
    let iterations = 40_000 / depth
    var samples = Array(repeating: [Double](), count: cases.count)
    for repetition in 0...repetitions {
        for (index, item) in cases.enumerated() {
            let perSend = await measure(
                bottom, tracer: item.tracer, context: item.context, iterations: iterations)
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
