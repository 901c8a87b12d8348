import Foundation
import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import Testing

/// The golden rows: a file as each shipped version of the store's schema left it
/// (`Golden/store-schema-<n>.sql`, written once by `Golden/make_golden.py`), holding posts of the
/// event `reservation` in its schema versions 1 and 2.
@Suite("Files of every shipped schema, and rows of every event version, are read by the current code")
struct GoldenRowTests {
    /// The store schemas that shipped, each with its golden file.
    static let shippedSchemas = [1, 2, 3]

    static func golden(_ schema: Int) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/store-schema-\(schema).sql")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test(
        "A file of each shipped schema opens, migrates, and its unfinished posts read as the current event",
        arguments: shippedSchemas)
    func reads(schema: Int) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let writer = try DatabaseQueue(path: path)
        try await writer.writeWithoutTransaction { db in try db.execute(sql: try Self.golden(schema)) }
        try writer.close()

        var events = StoredEvents()
        try events.register(
            Reservation.self, as: "reservation", version: 2,
            upcasting: [EventUpcast(from: 1, ReservationV1.self) { Reservation(id: $0.order, quantity: 1) }])
        let store = try SQLitePostStore(path: path, events: events)
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 3)

        let unfinished = try await store.unfinished()
        var expected = [Reservation(id: "o-1", quantity: 1), Reservation(id: "o-2", quantity: 2)]
        if schema >= 2 { expected.append(Reservation(id: "o-4", quantity: 1)) }
        #expect(unfinished.map { post in (post.payload.event as? Reservation) } == expected)
        #expect(unfinished.map(\.id.sequence) == (schema >= 2 ? [1, 2, 4] : [1, 2]))
        if schema >= 2 {
            let retried = try #require(unfinished.last)
            #expect(retried.failedAttempts.map(\.outcome.description) == ["out of stock"])
        }
        let letters = try await store.deadLetters(matching: .all)
        #expect(
            letters.map { $0.post.payload.event as? Reservation }
                == (schema >= 3 ? [Reservation(id: "o-5", quantity: 5)] : []))
    }
}

extension EventSystem.StoredPost.Payload {
    /// The event, when it reads.
    var event: (any Event)? {
        guard case .event(let event) = self else { return nil }
        return event
    }
}
