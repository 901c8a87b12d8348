import CoreMetrics
import InMemoryLogging
import Logging
import MetricsTestKit
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

@Suite(
    "The store counts its claims, takeovers, redeliveries and refusals, and samples its queue",
    .timeLimit(.minutes(1)))
struct StoreMetricsTests {
    typealias Names = PostgresStoreMetrics

    static let handled = EventSystem.StoredOutcome(kind: .handled, description: "handled")

    @Test(
        "A takeover after a lease expiry counts a lease expiry and the redeliveries; the old owner counts its refused finishes and, at its next heartbeat, its lost lease"
    )
    func takeover() async throws {
        try await withDatabase { client, _ in
            let firstMetrics = TestMetrics()
            let secondMetrics = TestMetrics()
            let first = try await meteredStore(
                client, "first", lease: .milliseconds(300), metrics: firstMetrics)
            let second = try await meteredStore(client, "second", lease: .seconds(30), metrics: secondMetrics)
            let posts = [samplePost(1, key: "order-1"), samplePost(2, key: "order-1")]
            _ = try await first.store(posts)

            let claimed = try await first.claim(limit: 10)
            #expect(claimed.count == 2)
            #expect(try firstMetrics.expectCounter(Names.claimedKeys).totalValue == 1)
            #expect(try firstMetrics.expectCounter(Names.claimedPosts).totalValue == 2)
            #expect(try firstMetrics.expectCounter(Names.redeliveredPosts).totalValue == 0)
            #expect(
                try firstMetrics.expectCounter(Names.leaseExpiries, [("kind", "takeover")]).totalValue == 0)

            // No heartbeat runs: the first lease lapses on the database's clock.
            let taken = try await eventually("the second consumer to take the key over") {
                let posts = try await second.claim(limit: 10)
                return posts.isEmpty ? nil : posts
            }
            #expect(taken.count == 2)
            #expect(
                try secondMetrics.expectCounter(Names.leaseExpiries, [("kind", "takeover")]).totalValue == 1)
            #expect(try secondMetrics.expectCounter(Names.redeliveredPosts).totalValue == 2)
            #expect(try secondMetrics.expectCounter(Names.claimedPosts).totalValue == 2)

            let firstLease = try #require(claimed.first?.lease)
            try await first.finish(claimed.map { .init(id: $0.id, outcome: Self.handled, lease: firstLease) })
            #expect(try firstMetrics.expectCounter(Names.refusedFinishes).totalValue == 2)
            #expect(try secondMetrics.expectCounter(Names.refusedFinishes).totalValue == 0)

            // The first store's heartbeat finds its lease taken, and counts it once.
            let lost = try firstMetrics.expectCounter(Names.leaseExpiries, [("kind", "lost")])
            _ = try await whileRunning(first) {
                try await eventually("the first store's heartbeat to count its lost lease") {
                    lost.totalValue > 0 ? true : nil
                }
            }
            #expect(lost.totalValue == 1)
            #expect(try secondMetrics.expectCounter(Names.leaseExpiries, [("kind", "lost")]).totalValue == 0)
        }
    }

    @Test("A lost lease is counted once, however many heartbeats find it lost")
    func lostLeaseCountedOnce() async throws {
        try await withDatabase { client, _ in
            let metrics = TestMetrics()
            let logs = InMemoryLogHandler()
            let clock = ManualClock()
            let first = try PostgresPostStore(
                client: client, events: try .forTests(), consumer: "first", lease: .milliseconds(300),
                clock: clock,
                logger: Logger(label: "first") { _ in logs },
                metrics: PostgresStoreMetrics(factory: metrics, interval: .seconds(3600)))
            try await first.migrate()
            let second = try await migratedStore(client, consumer: "second")
            _ = try await first.store([samplePost(1, key: "k")])
            #expect(try await first.claim(limit: 10).count == 1)
            _ = try await eventually("the second consumer to take the key over") {
                let posts = try await second.claim(limit: 10)
                return posts.isEmpty ? nil : posts
            }
            let lost = try metrics.expectCounter(Names.leaseExpiries, [("kind", "lost")])
            _ = try await whileRunning(first) {
                // Each step of the manual clock lets the heartbeat beat once more; each beat
                // that finds the lease lost says so.
                try await eventually("three heartbeats to find the lease lost") {
                    await clock.advance(by: .milliseconds(100))
                    return logs.entries.filter { "\($0.message)".hasPrefix("leases lost") }.count >= 3
                        ? true : nil
                }
            }
            #expect(lost.totalValue == 1)
        }
    }

    @Test("A post claimed for the first time is no redelivery, even on a key taken over")
    func firstClaimIsNoRedelivery() async throws {
        try await withDatabase { client, _ in
            let firstMetrics = TestMetrics()
            let secondMetrics = TestMetrics()
            // A lease long enough to outlast the finish below on a loaded machine: the finish
            // prunes keys with no unfinished post and no live lease, and a pruned key would come
            // back unowned (no takeover).
            let first = try await meteredStore(
                client, "first", lease: .seconds(3), metrics: firstMetrics)
            let second = try await meteredStore(client, "second", lease: .seconds(30), metrics: secondMetrics)
            _ = try await first.store([samplePost(1, key: "k")])
            let claimed = try await first.claim(limit: 10)
            let lease = try #require(claimed.first?.lease)
            try await first.finish(claimed.map { .init(id: $0.id, outcome: Self.handled, lease: lease) })
            _ = try await first.store([samplePost(2, key: "k")])
            // The key's lease lapses (no release): the next claim is a takeover of new posts.
            _ = try await eventually("the second consumer to claim the new post") {
                let posts = try await second.claim(limit: 10)
                return posts.isEmpty ? nil : posts
            }
            #expect(
                try secondMetrics.expectCounter(Names.leaseExpiries, [("kind", "takeover")]).totalValue == 1)
            #expect(try secondMetrics.expectCounter(Names.redeliveredPosts).totalValue == 0)
        }
    }

    @Test(
        "The depth gauge reads the unfinished posts; the age gauges follow the oldest post, per key for the oldest keys only"
    )
    func gauges() async throws {
        try await withDatabase { client, _ in
            let metrics = TestMetrics()
            let store = try await meteredStore(
                client, "sampler", lease: .seconds(30), metrics: metrics, interval: .milliseconds(20),
                keyLimit: 1)
            _ = try await store.store([samplePost(1, key: "old"), samplePost(2, key: "old")])
            _ = try await store.store([samplePost(3, key: "new")])
            try await whileRunning(store) {
                try await eventually("the depth gauge to read 3") {
                    try? metrics.expectGauge(Names.unfinishedPosts).lastValue == 3 ? true : nil
                }
                #expect(try metrics.expectGauge(Names.keysWithUnfinishedPosts).lastValue == 2)
                #expect(try metrics.expectGauge(Names.oldestUnfinishedAge).lastValue ?? -1 >= 0)
                #expect(metrics.recorders(label: Names.oldestUnfinishedAgeByKey).count == 1)
                #expect((try? metrics.expectGauge(Names.oldestUnfinishedAgeByKey, [("key", "old")])) != nil)

                // The old key's posts finish: its gauge goes, the new key's comes.
                let claimed = try await store.claim(limit: 2)
                #expect(Set(claimed.map(\.key.name)) == ["old"])
                let lease = try #require(claimed.first?.lease)
                try await store.finish(claimed.map { .init(id: $0.id, outcome: Self.handled, lease: lease) })
                try await eventually("the depth gauge to read 1") {
                    try? metrics.expectGauge(Names.unfinishedPosts).lastValue == 1 ? true : nil
                }
                try await eventually("the per-key gauge to follow the new key") {
                    (try? metrics.expectGauge(Names.oldestUnfinishedAgeByKey, [("key", "new")])) != nil
                        ? true : nil
                }
                #expect((try? metrics.expectGauge(Names.oldestUnfinishedAgeByKey, [("key", "old")])) == nil)
            }
        }
    }

    @Test("A store made without metrics has none, and claims as any other")
    func noMetrics() async throws {
        try await withDatabase { client, _ in
            let store = try PostgresPostStore(
                client: client, events: try .forTests(), logger: TestServer.quiet, metrics: nil)
            try await store.migrate()
            #expect(store.metrics == nil)
            _ = try await store.store([samplePost(1)])
            #expect(try await store.claim(limit: 10).count == 1)
        }
    }
}

/// A migrated store on `client` reporting to `metrics`.
func meteredStore(
    _ client: PostgresClient, _ consumer: String, lease: Duration, metrics: TestMetrics,
    interval: Duration = .seconds(10), keyLimit: Int = 10
) async throws -> PostgresPostStore {
    let store = try PostgresPostStore(
        client: client, events: try .forTests(), consumer: consumer, lease: lease, logger: TestServer.quiet,
        metrics: PostgresStoreMetrics(factory: metrics, interval: interval, keyLimit: keyLimit))
    try await store.migrate()
    return store
}
