import Foundation
import PostgresNIO
import ResponderChain
@testable import ResponderChainPostgres
import ResponderChainStoredEvents
import Testing

/// `reservation` as a binary of schema version 1 wrote it.
private struct ReservationV1: Decodable, Sendable {
    let order: String
}

/// `reservation` now (schema version 2).
private struct Reservation: Event, Codable, Equatable {
    let id: String
    let quantity: Int
}

/// The golden rows: what a database of each shipped version of the store's schema holds
/// (`Golden/posts-schema-<n>.sql`; the schema is its first n migrations, which never change),
/// posts of the event `reservation` in its schema versions 1 and 2.
@Suite(
    "Databases of every shipped schema, and rows of every event version, are read by the current code",
    .timeLimit(.minutes(1)))
struct GoldenRowTests {
    @Test(
        "A database of each shipped schema migrates, and its posts are claimed as the current event; its dead letters listed",
        arguments: 1...6)
    func reads(schema: Int) async throws {
        #expect(PostgresSchema.version == 6, "a new schema version ships with its golden rows")
        let rows = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Golden/posts-schema-\(schema).sql"), encoding: .utf8)
        try await withDatabase { client, _ in
            var statements = [
                "CREATE TABLE responderchain_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            ]
            statements += PostgresSchema.migrations.prefix(schema).flatMap { $0 }
            statements += (1...schema).map {
                "INSERT INTO responderchain_schema_version (version) VALUES (\($0))"
            }
            statements += rows.split(separator: "\n").filter { !$0.hasPrefix("--") }.map(String.init)
            for statement in statements {
                try await client.query(PostgresQuery(unsafeSQL: statement), logger: TestServer.quiet)
            }

            var events = StoredEvents()
            try events.register(
                Reservation.self, as: "reservation", version: 2,
                upcasting: [
                    EventUpcast(from: 1, ReservationV1.self) { Reservation(id: $0.order, quantity: 1) }
                ])
            let store = try PostgresPostStore(
                client: client, events: events, logger: TestServer.quiet, metrics: nil)
            #expect(try await store.migrate() == schema)

            let claimed = try await store.claim(limit: 10)
            var expected = [Reservation(id: "o-1", quantity: 1), Reservation(id: "o-2", quantity: 2)]
            if schema >= 4 { expected.append(Reservation(id: "o-4", quantity: 1)) }
            #expect(claimed.map { post in Self.event(post.payload) } == expected)
            if schema >= 4 {
                #expect(claimed.last?.failedAttempts.map(\.outcome.description) == ["out of stock"])
            }
            let letters = try await store.deadLetters(matching: .all)
            #expect(
                letters.map { Self.event($0.post.payload) }
                    == (schema >= 5 ? [Reservation(id: "o-5", quantity: 5)] : []))
        }
    }

    private static func event(_ payload: EventSystem.StoredPost.Payload) -> Reservation? {
        guard case .event(let event) = payload else { return nil }
        return event as? Reservation
    }
}
