import Foundation
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import Synchronization

/// A poster at a fixed rate, well below what the consumers can handle, so that "keeping up" has
/// one meaning: `Work` posts round robin over `keys`, one each `interval`, each key's numbered
/// from 0. A post the store does not accept (it threw) is posted again at the next tick, under
/// the same idempotency key (`key/number`), so that a post whose commit landed before its
/// connection broke is recognised, not stored twice; a key's next number waits until the one
/// before is accepted. What the store threw is kept, to check that it was typed.
final class SteadyLoad: Sendable {
    private struct State {
        var accepted: [String: Int] = [:]
        var typedFailures: [PostgresPostStoreError] = []
        var untypedFailures: [String] = []
        var stopped = false
    }

    let keys: [String]
    let interval: Duration
    private let state = Mutex(State())

    init(keys: [String], interval: Duration) {
        self.keys = keys
        self.interval = interval
    }

    /// How many posts of each key the store accepted (numbers `0..<n`).
    var accepted: [String: Int] { state.withLock { $0.accepted } }
    /// Every post accepted, in all.
    var acceptedCount: Int { state.withLock { $0.accepted.values.reduce(0, +) } }
    /// What the store threw, typed.
    var typedFailures: [PostgresPostStoreError] { state.withLock { $0.typedFailures } }
    /// What the store threw that was not a `PostgresPostStoreError`.
    var untypedFailures: [String] { state.withLock { $0.untypedFailures } }

    /// Ends ``run(_:)`` after the post under way.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Posts through `poster` until ``stop()``. A tick that comes late (a slow store) moves the
    /// schedule instead of making up for it: the rate never rises above the offered one.
    func run(_ poster: PostgresPostStore) async {
        let clock = ContinuousClock()
        var tick = clock.now
        var index = 0
        while !state.withLock({ $0.stopped }) {
            let key = keys[index % keys.count]
            let number = state.withLock { $0.accepted[key, default: 0] }
            let post = EventSystem.StoredPost(
                id: EventID(), key: .init(key), entry: "desk",
                payload: .event(Work(key: key, number: number)),
                idempotencyKey: "\(key)/\(number)")
            do {
                _ = try await poster.store([post])
                state.withLock { $0.accepted[key, default: 0] += 1 }
                index += 1
            } catch let error as PostgresPostStoreError {
                state.withLock { $0.typedFailures.append(error) }
            } catch {
                state.withLock { $0.untypedFailures.append("\(error)") }
            }
            tick = max(tick.advanced(by: interval), clock.now)
            try? await clock.sleep(until: tick)
        }
    }
}

/// Posts finished per window of `window` seconds, read from the database: the windows by number
/// (`floor(finished_at / window)`), with the database's clock now, in seconds since 1970.
struct FinishedWindows {
    let window: Double
    let counts: [Int64: Int]
    let now: Double

    /// Reads the windows of the finished posts (of `keys` only, if given).
    static func read(_ client: PostgresClient, window: Double, keys: [String]? = nil) async throws
        -> FinishedWindows
    {
        var counts: [Int64: Int] = [:]
        for try await (number, count) in try await client.query(
            """
            SELECT floor(extract(epoch FROM finished_at) / \(window))::bigint AS w, count(*)::bigint
            FROM responderchain_posts
            WHERE finished_at IS NOT NULL AND (\(keys == nil) OR ordering_key = ANY(\(keys ?? [])))
            GROUP BY w
            """, logger: TestServer.quiet
        ).decode((Int64, Int64).self) {
            counts[number] = Int(count)
        }
        return FinishedWindows(window: window, counts: counts, now: try await databaseNow(client))
    }

    /// The first window that has a finish.
    var first: Int64? { counts.keys.min() }

    /// The windows after the first (which began part way) that ended before `time`, in order.
    func complete(before time: Double) -> [(number: Int64, count: Int)] {
        guard let first else { return [] }
        var windows: [(Int64, Int)] = []
        var number = first + 1
        while Double(number + 1) * window <= min(time, now) {
            windows.append((number, counts[number] ?? 0))
            number += 1
        }
        return windows
    }

    /// The windows that began at or after `time` and have ended, in order.
    func complete(from time: Double) -> [(number: Int64, count: Int)] {
        var windows: [(Int64, Int)] = []
        var number = Int64((time / window).rounded(.up))
        while Double(number + 1) * window <= now {
            windows.append((number, counts[number] ?? 0))
            number += 1
        }
        return windows
    }
}

/// The median of `values` (0 for none).
func median(_ values: [Int]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
}

/// The database's clock now, in seconds since 1970.
func databaseNow(_ client: PostgresClient) async throws -> Double {
    var now = 0.0
    for try await (seconds, ) in try await client.query(
        "SELECT extract(epoch FROM clock_timestamp())::float8", logger: TestServer.quiet
    ).decode((Double,).self) {
        now = seconds
    }
    return now
}
