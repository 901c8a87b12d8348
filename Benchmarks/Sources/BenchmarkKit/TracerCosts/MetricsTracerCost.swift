import CoreMetrics
import ResponderChain
import ResponderChainMetrics
import Synchronization

extension TracerCost {
    /// `MetricsTracer` (swift-metrics) with a no-op backend and with a backend of atomic counters,
    /// beside a tracer that records nothing (the routing's own cost of a traced send).
    static let metrics = TracerCost(
        id: "metrics-tracer", title: "7d MetricsTracer",
        note: logging.note,
        variants: {
            let atomic = AtomicMetrics()
            return [
                Variant(name: "empty tracer (the routing's traced path alone)", tracer: EmptyTracer()),
                .metricsNoOpBackend,
                Variant(name: "atomic backend", tracer: MetricsTracer(factory: atomic)),
                Variant(
                    name: "atomic, unlabelled hops",
                    tracer: MetricsTracer(hopTimers: .unlabelled, factory: atomic)),
                Variant(
                    name: "atomic, no send timer", tracer: MetricsTracer(timesSends: false, factory: atomic)),
                Variant(
                    name: "atomic, no hop or send timers",
                    tracer: MetricsTracer(hopTimers: .off, timesSends: false, factory: atomic)),
            ]
        })
}

extension TracerCost.Variant {
    /// A `MetricsTracer` over swift-metrics' no-op backend: the adapter's own cost, its target
    /// ≤ +300 ns per hop.
    static var metricsNoOpBackend: Self {
        Self(
            name: "no-op backend", tracer: MetricsTracer(factory: NOOPMetricsHandler.instance),
            target: .extraNanosecondsPerHopAtMost(300))
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
