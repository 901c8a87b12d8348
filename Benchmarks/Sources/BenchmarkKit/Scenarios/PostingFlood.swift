import Foundation
import ResponderChain

/// Scenario 8, continued: memory under a flood of posts. One sender posts N events (1,000,000; 20,000
/// with `--quick`) as fast as it can against a top responder that suspends on every event, so
/// posts pile up. The figure is the growth of the process's peak resident memory during the flood
/// (Linux: the peak is reset through `/proc/self/clear_refs` before, and read as `VmHWM` after).
///
/// Library: the system's default ``EventSystem/PostingLimit`` (4,096 outstanding, posters suspended when
/// full). Baseline: the same flood with the limit lifted to N, which is what an unbounded queue
/// does: everything posted but not yet delivered stays in memory.
struct PostingFlood: Scenario {
    let id = "flood"
    let title = "8 memory under a flood of posts, peak RSS growth"

    func run(_ measurer: Measurer) async -> [Row] {
        let posts = measurer.options.quick ? 20_000 : 1_000_000
        guard
            let bounded = await Self.flood(
                posts: posts, limit: EventSystem.PostingLimit.default.maxOutstanding),
            let unbounded = await Self.flood(posts: posts, limit: posts)
        else {
            return [
                Row(
                    id: id, scenario: "\(title): not measured", depth: nil, hops: 1, library: nil,
                    baseline: nil, unit: .kibibytes, target: .report,
                    note: "8 flood: peak RSS is read from /proc (Linux only)")
            ]
        }
        return [
            Row(
                id: id, scenario: title, depth: posts, hops: 1,
                library: Sample([Double(bounded.growthKiB)]), baseline: Sample([Double(unbounded.growthKiB)]),
                unit: .kibibytes, target: .report,
                note: "8 flood: \(posts) posts; peak outstanding \(bounded.peakOutstanding) with the default "
                    + "limit (library) vs \(unbounded.peakOutstanding) with the limit lifted (baseline)")
        ]
    }

    private struct Result {
        let growthKiB: Int
        let peakOutstanding: Int
    }

    /// Posts `posts` events against a slow top responder through a system with `limit`, and
    /// returns the peak RSS growth; `nil` where it cannot be read.
    @concurrent
    private static func flood(posts: Int, limit: Int) async -> Result? {
        let system = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: limit))
        let top = SlowTop(system: system)
        let sender = FloodSender(top: top, system: system)
        guard resetPeakRSS(), let before = peakRSSKiB() else { return nil }
        var last: Ticket?
        for index in 0..<posts {
            last = await sender.post(Probe(a: index, b: 1, c: 2))
        }
        _ = await last?.outcome
        guard let after = peakRSSKiB() else { return nil }
        return Result(growthKiB: after - before, peakOutstanding: system.peakOutstandingPosts)
    }

    /// Resets the kernel's peak-RSS mark for this process (Linux ≥ 4.0).
    private nonisolated static func resetPeakRSS() -> Bool {
        FileManager.default.createFile(atPath: "/proc/self/clear_refs", contents: Data("5".utf8))
            || (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }

    /// `VmHWM` from `/proc/self/status`, in KiB.
    private nonisolated static func peakRSSKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }
}

/// The top of the flood's chain: counts, and suspends once per event, so that posts pile up.
private actor SlowTop: Responder {
    nonisolated let eventSystem: EventSystem
    private var handled = 0

    init(system: EventSystem) { self.eventSystem = system }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<SlowTop> {
        $0.on(Probe.self) { top, _, _ in
            top.handled += 1
            await Task.yield()
            return .handled
        }
    }
}

/// The sender of a flood of posts (here and in ``QueuedPostMemory``): its `next` is the top.
actor FloodSender: Responder {
    nonisolated let eventSystem: EventSystem
    private let top: any Responder

    init(top: any Responder, system: EventSystem) {
        self.top = top
        self.eventSystem = system
    }

    var next: (any Responder)? { top }
}
