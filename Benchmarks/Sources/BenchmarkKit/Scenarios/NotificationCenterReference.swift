import Foundation
import Synchronization

/// A familiar reference line: `NotificationCenter.post` to N observers (N = the depths), per post
/// and per observer. No library side, no target.
struct NotificationCenterReference: Scenario {
    let id = "notification-center"
    let title = "NotificationCenter.post (reference)"

    private nonisolated static let name = Notification.Name("ResponderBench.Probe")
    private nonisolated static let received = Atomic<Int>(0)

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        for observers in measurer.options.depths {
            let center = NotificationCenter()
            let tokens = (0..<observers).map { _ in
                center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in
                    Self.received.add(1, ordering: .relaxed)
                }
            }
            let sample = await measurer.measure({ Self.post(on: center, iterations: $0) })
            for token in tokens { center.removeObserver(token) }
            rows.append(
                Row(
                    id: id, scenario: title, depth: observers, hops: Double(observers),
                    library: sample, baseline: nil, target: .report,
                    note: "reference: for NotificationCenter, D = observers and a hop is one "
                        + "observer called"))
        }
        return rows
    }

    static func post(on center: NotificationCenter, iterations: Int) -> Timed {
        let stopwatch = Stopwatch()
        for _ in 0..<iterations {
            center.post(name: name, object: nil)
        }
        let checksum = UInt64(received.load(ordering: .relaxed))
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }
}
