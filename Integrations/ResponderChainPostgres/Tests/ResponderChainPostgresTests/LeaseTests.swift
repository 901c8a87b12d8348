import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite(
    "Leases expire, are renewed by the heartbeat, are released, and fence finishes", .timeLimit(.minutes(1)))
struct LeaseTests {
    static let handled = EventSystem.StoredOutcome(kind: .handled, description: "handled")

    @Test(
        "A lease not renewed is taken over after it expires, with a larger token; the old owner's finish is refused and counted, the new owner's recorded"
    )
    func takeOverAfterExpiry() async throws {
        try await withDatabase { client, _ in
            let first = try await migratedStore(client, consumer: "first", lease: .seconds(1))
            let second = try await migratedStore(client, consumer: "second", lease: .seconds(1))
            let post = samplePost(1, key: "order-1")
            _ = try await first.store([post])
            let claimed = try await first.claim(limit: 10)
            let firstLease = try #require(claimed.first?.lease)
            #expect(try await second.claim(limit: 10).isEmpty)
            // No heartbeat runs (no run()): the lease lapses on the database's clock.
            let taken = try await eventually("the second consumer to take the key over") {
                let posts = try await second.claim(limit: 10)
                return posts.isEmpty ? nil : posts
            }
            let secondLease = try #require(taken.first?.lease)
            #expect(taken.map(\.id) == [post.id])
            #expect(secondLease.key == firstLease.key)
            #expect(secondLease.token > firstLease.token)

            try await first.finish([.init(id: post.id, outcome: Self.handled, lease: firstLease)])
            #expect(first.refusedFinishes == 1)
            #expect(try await first.outcome(of: post.id) == nil)
            #expect(try await first.unfinished().map(\.id) == [post.id])

            try await second.finish([.init(id: post.id, outcome: Self.handled, lease: secondLease)])
            #expect(second.refusedFinishes == 0)
            #expect(try await second.outcome(of: post.id) == Self.handled)
        }
    }

    @Test("The heartbeat keeps a slow consumer's keys past several leases")
    func heartbeatKeepsKeys() async throws {
        try await withDatabase { client, _ in
            // Two seconds: a heartbeat (every third of a lease) late by more than a lease's
            // two thirds would lose the key; a loaded CI machine delays one by a few hundred ms.
            let slow = try await migratedStore(client, consumer: "slow", lease: .seconds(2))
            let other = try await migratedStore(client, consumer: "other", lease: .seconds(2))
            _ = try await slow.store([samplePost(1, key: "k")])
            try await whileRunning(slow) {
                let claimed = try await slow.claim(limit: 10)
                let lease = try #require(claimed.first?.lease)
                // Over three leases' time, no claim by another consumer gets the key.
                let clock = ContinuousClock()
                let end = clock.now.advanced(by: .seconds(6))
                while clock.now < end {
                    #expect(try await other.claim(limit: 10).isEmpty)
                    try await clock.sleep(for: .milliseconds(100))
                }
                try await slow.finish([.init(id: claimed[0].id, outcome: Self.handled, lease: lease)])
                #expect(slow.refusedFinishes == 0)
            }
        }
    }

    @Test("A released key is claimable by another consumer at once, with a larger token")
    func releaseHandsOver() async throws {
        try await withDatabase { client, _ in
            let first = try await migratedStore(client, consumer: "first")
            let second = try await migratedStore(client, consumer: "second")
            _ = try await first.store([samplePost(1, key: "k"), samplePost(2, key: "k")])
            let claimed = try await first.claim(limit: 1)
            let lease = try #require(claimed.first?.lease)
            try await first.finish([.init(id: claimed[0].id, outcome: Self.handled, lease: lease)])
            #expect(try await second.claim(limit: 10).isEmpty)
            try await first.release([lease])
            let next = try await second.claim(limit: 10)
            #expect(next.count == 1)
            #expect(try #require(next.first?.lease).token > lease.token)
            // Releasing a lease that is no longer current changes nothing.
            try await first.release([lease])
            #expect(try await first.claim(limit: 10).isEmpty)
        }
    }

    @Test(
        "A finish under an earlier lease of the same consumer is refused once it claimed the key again: the token fences, not only the owner"
    )
    func earlierLeaseOfTheSameOwner() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client, consumer: "only")
            let post = samplePost(1, key: "k")
            _ = try await store.store([post])
            let earlier = try #require(try await store.claim(limit: 10).first?.lease)
            try await store.release([earlier])
            let again = try await store.claim(limit: 10)
            let current = try #require(again.first?.lease)
            #expect(again.map(\.id) == [post.id])
            #expect(current.token > earlier.token)

            try await store.finish([.init(id: post.id, outcome: Self.handled, lease: earlier)])
            #expect(store.refusedFinishes == 1)
            #expect(try await store.outcome(of: post.id) == nil)

            try await store.finish([.init(id: post.id, outcome: Self.handled, lease: current)])
            #expect(store.refusedFinishes == 1)
            #expect(try await store.outcome(of: post.id) == Self.handled)
        }
    }

    @Test("A finish without a lease is recorded as in a store of one consumer")
    func unleasedFinish() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            let post = samplePost(1)
            _ = try await store.store([post])
            try await store.finish([.init(id: post.id, outcome: Self.handled)])
            #expect(try await store.outcome(of: post.id) == Self.handled)
            #expect(store.refusedFinishes == 0)
        }
    }
}
