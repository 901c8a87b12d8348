import Logging
import PostgresNIO
import ResponderChain
@testable import ResponderChainPostgres
import ResponderChainTesting
import Synchronization
import Testing

@Suite(
    "Consumers of one store never hold a key at once, and get each key's posts in order",
    .timeLimit(.minutes(1)))
struct KeyOwnershipTests {
    /// What the consumers saw: the keys held now, and each key's numbers in delivery order.
    struct Ledger {
        var holding: [String: String] = [:]
        var overlaps: [String] = []
        var delivered: [String: [Int]] = [:]
    }

    /// The ledger, shared by the consumers' tasks.
    final class SharedLedger: Sendable {
        let ledger = Mutex(Ledger())
    }

    @Test(
        "Three consumers drain 600 posts on 20 keys: one holder per key at a time, each key in post order, each post once"
    )
    func oneHolderPerKey() async throws {
        try await withDatabase { client, _ in
            let writer = try await migratedStore(client)
            let keys = (0..<20).map { EventSystem.OrderingKey("key-\($0)") }
            var posts: [EventSystem.StoredPost] = []
            for number in 0..<600 { posts.append(samplePost(number, key: keys[number % keys.count])) }
            // Several batches, so that the posts of a key span batches.
            for batch in stride(from: 0, to: posts.count, by: 50) {
                _ = try await writer.store(Array(posts[batch..<(batch + 50)]))
            }
            let shared = SharedLedger()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in ["a", "b", "c"] {
                    let store = try await migratedStore(client, consumer: name)
                    group.addTask {
                        var idle = 0
                        while idle < 3 {
                            let claimed = try await store.claim(limit: 16)
                            if claimed.isEmpty {
                                idle += 1
                                try await ContinuousClock().sleep(for: .milliseconds(20))
                                continue
                            }
                            idle = 0
                            let leases = Set(claimed.compactMap(\.lease))
                            shared.ledger.withLock { ledger in
                                for lease in leases {
                                    if let other = ledger.holding[lease.key.name] {
                                        ledger.overlaps.append("\(lease.key) held by \(other) and \(name)")
                                    }
                                    ledger.holding[lease.key.name] = name
                                }
                                for post in claimed {
                                    guard case .event(let event) = post.payload,
                                        let sample = event as? PostStoreConformance.Sample
                                    else { continue }
                                    ledger.delivered[post.key.name, default: []].append(sample.number)
                                }
                            }
                            try await store.finish(
                                claimed.map {
                                    .init(
                                        id: $0.id, outcome: .init(kind: .handled, description: name),
                                        lease: $0.lease)
                                })
                            // Out of the ledger before the release, so that the next holder is
                            // never counted against this one.
                            shared.ledger.withLock { ledger in
                                for lease in leases { ledger.holding[lease.key.name] = nil }
                            }
                            try await store.release(Array(leases))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let result = shared.ledger.withLock { $0 }
            #expect(result.overlaps.isEmpty, "\(result.overlaps.prefix(5))")
            for (index, key) in keys.enumerated() {
                let expected = Array(stride(from: index, to: 600, by: keys.count))
                #expect(result.delivered[key.name] == expected, "key \(key)")
            }
            #expect(try await writer.unfinished().isEmpty)
        }
    }

    @Test("A claim returns at most `limit` posts, oldest first, every one under its key's lease")
    func claimLimit() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            let posts = (0..<10).map { samplePost($0, key: .init("k\($0 % 3)")) }
            _ = try await store.store(posts)
            let claimed = try await store.claim(limit: 4)
            #expect(claimed.map(\.id) == Array(posts.prefix(4)).map(\.id))
            #expect(claimed.allSatisfy { $0.lease?.key == $0.key })
            // Keys held: nothing more of them until released.
            let again = try await store.claim(limit: 100)
            #expect(Set(again.map(\.key)).isDisjoint(with: Set(claimed.map(\.key))))
        }
    }

    @Test(
        "A claim that read a key's posts just before another consumer claimed, finished and released them does not hand them out again"
    )
    func claimAfterAnotherConsumersWholeTurn() async throws {
        try await withDatabase { client, _ in
            let late = try await migratedStore(client, consumer: "late")
            let quick = try await migratedStore(client, consumer: "quick")
            _ = try await late.store([samplePost(1, key: "k"), samplePost(2, key: "k")])
            // The late claim reads the posts, then sleeps before it locks their key.
            late.state.withLock { $0.claimPause = .seconds(2) }
            let lateClaim = Task { try await late.claim(limit: 10) }
            try await eventually("the late claim to sleep before it locks") { () -> Bool? in
                var sleeping = 0
                for try await (count, ) in try await client.query(
                    """
                    SELECT count(*)::bigint FROM pg_stat_activity
                    WHERE wait_event = 'PgSleep' AND datname = current_database()
                    """, logger: TestServer.quiet
                ).decode((Int.self,)) {
                    sleeping = count
                }
                return sleeping > 0 ? true : nil
            }
            // Meanwhile another consumer takes the key's whole turn (its first finish would also
            // prune, whose table lock waits for the late claim's statement: not due here).
            quick.state.withLock { $0.prunedAt = quick.elapsed() }
            let claimed = try await quick.claim(limit: 10)
            #expect(claimed.count == 2)
            let lease = try #require(claimed.first?.lease)
            try await quick.finish(
                claimed.map {
                    .init(id: $0.id, outcome: .init(kind: .handled, description: "handled"), lease: lease)
                })
            try await quick.release([lease])
            // The late claim's posts as read are finished: it hands out nothing.
            #expect(try await lateClaim.value.map(\.id) == [])
            late.state.withLock { $0.claimPause = nil }
            #expect(try await late.claim(limit: 10).isEmpty)
        }
    }
}
