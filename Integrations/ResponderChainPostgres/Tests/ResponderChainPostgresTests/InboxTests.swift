import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite("The inbox keeps an effect once, and only under the current lease", .timeLimit(.minutes(1)))
struct InboxTests {
    static func effects(_ client: PostgresClient) async throws -> [Int] {
        var numbers: [Int] = []
        for try await (number, ) in try await client.query(
            "SELECT number FROM effect ORDER BY number", logger: TestServer.quiet
        ).decode((Int.self,)) {
            numbers.append(number)
        }
        return numbers
    }

    @Test("A redelivered event's effect is written once")
    func once() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            try await client.query("CREATE TABLE effect (number bigint)", logger: TestServer.quiet)
            let post = samplePost(7)
            _ = try await store.store([post])
            let claimed = try await store.claim(limit: 1)
            #expect(claimed.count == 1)
            for _ in 0..<2 {
                try await store.inbox.handleOnce(post.id) { connection in
                    try await connection.query("INSERT INTO effect VALUES (7)", logger: TestServer.quiet)
                }
            }
            #expect(try await Self.effects(client) == [7])
            #expect(try await store.inbox.hasHandled(post.id))
        }
    }

    @Test("Under a lease another consumer took over, the inbox refuses (lostLease) and writes nothing")
    func refusedUnderLostLease() async throws {
        try await withDatabase { client, _ in
            let first = try await migratedStore(client, consumer: "first", lease: .seconds(1))
            let second = try await migratedStore(client, consumer: "second", lease: .seconds(1))
            try await client.query("CREATE TABLE effect (number bigint)", logger: TestServer.quiet)
            let post = samplePost(3, key: "order-3")
            _ = try await first.store([post])
            #expect(try await first.claim(limit: 1).count == 1)
            _ = try await eventually("the second consumer to take the key over") {
                try await second.claim(limit: 1).first
            }
            await #expect {
                try await first.inbox.handleOnce(post.id) { connection in
                    try await connection.query("INSERT INTO effect VALUES (3)", logger: TestServer.quiet)
                }
            } throws: { error in
                guard case PostgresPostStoreError.lostLease(let key, _) = error else { return false }
                return key == "order-3"
            }
            #expect(try await Self.effects(client).isEmpty)
            #expect(try await !first.inbox.hasHandled(post.id))
            let ran = try await second.inbox.handleOnce(post.id) { connection in
                try await connection.query("INSERT INTO effect VALUES (3)", logger: TestServer.quiet)
            }
            #expect(ran)
            #expect(try await Self.effects(client) == [3])
        }
    }

    @Test("A body that throws keeps nothing and records nothing")
    func rollsBack() async throws {
        struct Refused: Error {}
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            try await client.query("CREATE TABLE effect (number bigint)", logger: TestServer.quiet)
            let post = samplePost(1)
            _ = try await store.store([post])
            await #expect(throws: Refused.self) {
                try await store.inbox.handleOnce(post.id) { connection in
                    try await connection.query("INSERT INTO effect VALUES (1)", logger: TestServer.quiet)
                    throw Refused()
                }
            }
            #expect(try await Self.effects(client).isEmpty)
            #expect(try await !store.inbox.hasHandled(post.id))
        }
    }
}
