import ResponderChainTesting
import Testing

@testable import ResponderUI

/// What the jobs of a lane did, in order.
@MainActor
private final class LaneLog {
    var entries: [String] = []

    /// A job's body that parks: logs `before`, waits at `gate`, then logs `after`.
    func parked(at gate: Gate, between before: String, and after: String) async {
        entries.append(before)
        try? await gate.pass()
        entries.append(after)
    }
}

@Suite("A window's lane of unawaited sends")
@MainActor
struct SendLaneTests {
    @Test("ordered jobs run one at a time, in the order queued, even while one is parked")
    func orderedJobs() async throws {
        let lane = SendLane(startsImmediately: false)
        let log = LaneLog()
        let gate = Gate()
        lane.enqueue { await log.parked(at: gate, between: "first starts", and: "first ends") }
        lane.enqueue { log.entries.append("second") }
        lane.enqueue { log.entries.append("third") }

        try await gate.waitForArrivals(1)
        #expect(log.entries == ["first starts"])
        #expect(!lane.isIdle)
        gate.open()
        await lane.sent()

        #expect(log.entries == ["first starts", "first ends", "second", "third"])
        #expect(lane.isIdle)
    }

    @Test(
        "a lane that starts immediately has run its first job up to its first suspension when enqueue returns"
    )
    func immediateStart() async {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let lane = SendLane(startsImmediately: true)
        let log = LaneLog()
        lane.enqueue { log.entries.append("ran") }
        #expect(log.entries == ["ran"])
        await lane.sent()
    }

    @Test("a job queued from inside a job runs beside it, and waiting from inside waits only for that one")
    func nestedJobs() async {
        let lane = SendLane(startsImmediately: false)
        let log = LaneLog()
        lane.enqueue {
            log.entries.append("outer starts")
            lane.enqueue { log.entries.append("nested") }
            // Waiting behind the queue here would wait for this very job.
            await lane.sent()
            log.entries.append("outer ends")
        }
        await lane.sent()

        #expect(log.entries == ["outer starts", "nested", "outer ends"])
        #expect(lane.isIdle)
    }

    @Test(
        "an unordered job starts beside a parked ordered job, and waiting for the lane does not wait for it")
    func unorderedJobs() async throws {
        let lane = SendLane(startsImmediately: false)
        let log = LaneLog()
        let gate = Gate()
        let ended = Gate()
        lane.unordered {
            await log.parked(at: gate, between: "unordered parks", and: "unordered ends")
            ended.open()
        }
        lane.enqueue { log.entries.append("ordered") }

        await lane.sent()
        try await gate.waitForArrivals(1)
        #expect(log.entries.contains("ordered"))
        #expect(!log.entries.contains("unordered ends"))
        #expect(!lane.isIdle)
        gate.open()
        try await ended.pass()
        #expect(log.entries.last == "unordered ends")
        #expect(lane.isIdle)
    }
}
