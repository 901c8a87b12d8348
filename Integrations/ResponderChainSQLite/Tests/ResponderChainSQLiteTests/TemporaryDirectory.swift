import Foundation
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import ResponderChainTesting

/// A new directory under the system's temporary directory, removed with the object.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("ResponderChainSQLiteTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A file in the directory.
    func file(_ name: String = "posts.sqlite") -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// An order event the tests store.
struct OrderPlaced: Event, Codable, Hashable {
    let order: String
}

/// An event no test registers.
struct Unregistered: Event, Codable {}

extension StoredEvents {
    /// The conformance suite's sample and ``OrderPlaced`` (at `version`).
    static func forTests(orderVersion: Int = 1) throws -> StoredEvents {
        var events = StoredEvents()
        try events.register(PostStoreConformance.Sample.self, as: "sample")
        try events.register(OrderPlaced.self, as: "order-placed", version: orderVersion)
        return events
    }
}

extension EventSystem.StoredPost {
    /// A post of ``OrderPlaced`` for `order`.
    static func order(_ order: String, key: EventSystem.OrderingKey = "orders", idempotencyKey: String? = nil)
        -> Self
    {
        Self(
            id: EventID(), key: key, entry: "orders", payload: .event(OrderPlaced(order: order)),
            idempotencyKey: idempotencyKey)
    }

    /// The order the post carries, if it is a readable ``OrderPlaced``.
    var order: String? {
        guard case .event(let event) = payload else { return nil }
        return (event as? OrderPlaced)?.order
    }
}
