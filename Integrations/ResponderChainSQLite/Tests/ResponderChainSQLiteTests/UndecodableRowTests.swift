import Foundation
import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import Testing

@Suite("A stored row this binary cannot read comes back typed, with its bytes")
struct UndecodableRowTests {
    /// How a row becomes unreadable to the binary that opens the file next.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case nameUnknown = "its name is registered to no type"
        case versionNewer = "it was stored with a newer schema version"
        case bytesCorrupt = "its bytes do not decode"

        var testDescription: String { rawValue }
    }

    @Test("A row is undecodable when", arguments: Damage.allCases)
    func undecodable(_ damage: Damage) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let writer = try SQLitePostStore(
            path: path, events: try .forTests(orderVersion: damage == .versionNewer ? 2 : 1))
        let post = EventSystem.StoredPost.order("o-1")
        let readable = EventSystem.StoredPost.order("o-2")
        _ = try await writer.store([post, readable])
        var expectedBytes = Array(#"{"order":"o-1"}"#.utf8)
        if damage == .bytesCorrupt {
            expectedBytes = [0x00, 0xFF, 0x7B]
            let corrupt = Data(expectedBytes)
            try await writer.write { db, _ in
                try db.execute(
                    sql: "UPDATE responder_post SET payload = ? WHERE entry = 'orders' AND sequence = 1",
                    arguments: [corrupt])
            }
        }

        var events = StoredEvents()
        if damage != .nameUnknown { try events.register(OrderPlaced.self, as: "order-placed") }
        let reader = try SQLitePostStore(path: path, events: events)
        let unfinished = try await reader.unfinished()

        #expect(unfinished.map(\.id) == [post.id, readable.id])
        guard case .undecodable(let undecodable) = try #require(unfinished.first).payload else {
            Issue.record("the damaged row came back readable")
            return
        }
        #expect(undecodable.typeName == "order-placed")
        #expect(undecodable.schemaVersion == (damage == .versionNewer ? 2 : 1))
        #expect(undecodable.bytes == expectedBytes)
        if damage == .bytesCorrupt { #expect(unfinished.last?.order == "o-2") }

        // Its key is not held: the post office finishes it (failed, to the dead letters).
        try await reader.finish([
            .init(id: post.id, outcome: .init(kind: .failed, description: "\(undecodable)"))
        ])
        #expect(try await reader.unfinished().map(\.id) == [readable.id])
    }
}
