// metrics-tracer-cost: what `MetricsTracer` costs per hop, against the same chain with no tracer
// and with a tracer that records nothing (the routing's own cost of a traced send), in the same
// run. Not a test: timings are printed, never asserted.
//
//   swift run -c release --package-path Integrations/ResponderChainMetrics metrics-tracer-cost

import CoreMetrics
import ResponderChain
import ResponderChainMetrics
import Synchronization

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

/// A tracer that accepts every send and records nothing: what the routing itself does for a
/// traced send (hop values, clock readings), without any adapter.
struct EmptyTracer: Tracer {
    func record(_ event: TraceEvent) {}
}

/// A backend of atomic counters: a counter is one relaxed atomic add, a timer two (count and
/// sum), a gauge one store. A floor for a real in-process backend (a Prometheus histogram also
/// finds its bucket), with none of a no-op backend's shortcuts.
final class AtomicMetrics: MetricsFactory {
    final class Counter: CounterHandler {
        let value = Atomic<Int64>(0)
        func increment(by amount: Int64) { value.wrappingAdd(amount, ordering: .relaxed) }
        func reset() { value.store(0, ordering: .relaxed) }
    }

    final class Recorder: RecorderHandler {
        let bits = Atomic<UInt64>(0)
        func record(_ value: Int64) { record(Double(value)) }
        func record(_ value: Double) { bits.store(value.bitPattern, ordering: .relaxed) }
    }

    final class Timer: TimerHandler {
        let count = Atomic<Int64>(0)
        let sum = Atomic<Int64>(0)
        func recordNanoseconds(_ duration: Int64) {
            count.wrappingAdd(1, ordering: .relaxed)
            sum.wrappingAdd(duration, ordering: .relaxed)
        }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { Counter() }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        Recorder()
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Timer() }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
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

let noop = NOOPMetricsHandler.instance
let atomic = AtomicMetrics()
let cases: [(name: String, tracer: (any Tracer)?)] = [
    ("no tracer", nil),
    ("empty tracer (routing's traced path alone)", EmptyTracer()),
    ("MetricsTracer, no-op backend", MetricsTracer(factory: noop)),
    ("MetricsTracer, atomic backend", MetricsTracer(factory: atomic)),
    ("MetricsTracer, atomic, unlabelled hops", MetricsTracer(hopTimers: .unlabelled, factory: atomic)),
    ("MetricsTracer, atomic, no send timer", MetricsTracer(timesSends: false, factory: atomic)),
    (
        "MetricsTracer, atomic, no hop or send timers",
        MetricsTracer(hopTimers: .off, timesSends: false, factory: atomic)
    ),
]
let repetitions = 15
print("metrics-tracer-cost: medians of \(repetitions) alternated repetitions; +ns/hop against no tracer")
for depth in [8, 64] {
    let bottom = Link.chain(depth: depth)
    let iterations = 80_000 / depth
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
