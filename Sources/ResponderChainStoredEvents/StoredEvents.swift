public import Foundation
public import ResponderChain

/// The event types a durable post store (`SQLitePostStore`, `PostgresPostStore`) may write, each under a stable name and a schema
/// version: a stored row names its event by that name, so that a later binary (where the type
/// may have moved, been renamed or removed) still knows what the row holds.
///
/// Events are encoded as JSON. Reading a row back gives the event, or, when this binary cannot
/// read it (no type under its name, a schema version newer than the registered one, bytes that
/// no longer decode), `EventSystem.StoredPost.Payload.undecodable(_:)` with the row's bytes: the
/// system ends that post failed and sends it to the dead letters. Never a crash, never a skip.
///
/// ```swift
/// var events = StoredEvents()
/// try events.register(OrderPlaced.self, as: "order-placed")
/// try events.register(OrderPaid.self, as: "order-paid", version: 2)
/// let store = try SQLitePostStore(path: "orders.sqlite", events: events)
/// ```
///
/// A store calls ``encode(_:with:)`` when it writes a post and ``decode(name:version:bytes:)``
/// when it reads one: the registry is the one place that maps types to stored names, so that
/// every store reads what another wrote under the same registrations.
public struct StoredEvents: Sendable {
    /// One registered type.
    private struct Kind: Sendable {
        let typeName: String
        let version: Int
        /// Encodes an event of this kind's type; `nil` for an event of another type.
        let encode: @Sendable (any Event, JSONEncoder) throws -> Data?
        let decode: @Sendable (Data) throws -> any Event
    }

    private var kinds: [String: Kind] = [:]
    private var names: [ObjectIdentifier: String] = [:]

    /// No event types.
    public init() {}

    /// Registers `type` under `name`, written with schema version `version` (1 for a type's
    /// first shape; raise it when the shape changes incompatibly, so that an older binary
    /// reading a newer row reports it instead of misreading it).
    ///
    /// - Throws: ``StoredEventsError`` if the name is taken or empty, the type is registered
    ///   already, or the version is below 1.
    public mutating func register<E: Event & Codable>(
        _ type: E.Type, as name: String, version: Int = 1
    ) throws(StoredEventsError) {
        guard !name.isEmpty else { throw .emptyName }
        guard version >= 1 else { throw .invalidVersion(version) }
        let typeName = String(reflecting: type)
        if let existing = names[ObjectIdentifier(type)] { throw .typeRegistered(typeName, as: existing) }
        if let taken = kinds[name] { throw .nameTaken(name, by: taken.typeName) }
        names[ObjectIdentifier(type)] = name
        kinds[name] = Kind(
            typeName: typeName, version: version,
            encode: { event, encoder in
                guard let event = event as? E else { return nil }
                return try encoder.encode(event)
            },
            decode: { bytes in try JSONDecoder().decode(E.self, from: bytes) })
    }

    /// The name `type` is registered under.
    public func name(of type: any Event.Type) -> String? {
        names[ObjectIdentifier(type)]
    }

    /// The name, version and bytes `event` is stored as, encoded by `encoder` (pass one encoder
    /// for a whole batch).
    ///
    /// ```swift
    /// let (name, version, bytes) = try events.encode(OrderPlaced(id: "o-17"))
    /// ```
    ///
    /// - Throws: ``StoredEventsError/unregisteredEvent(typeName:)`` for an event whose type is
    ///   not registered, ``StoredEventsError/encodingFailed(typeName:reason:)`` for one that
    ///   does not encode.
    public func encode(
        _ event: any Event, with encoder: JSONEncoder = JSONEncoder()
    ) throws(StoredEventsError) -> (name: String, version: Int, bytes: Data) {
        let type = Swift.type(of: event)
        guard let name = names[ObjectIdentifier(type)], let kind = kinds[name] else {
            throw .unregisteredEvent(typeName: String(reflecting: type))
        }
        do {
            guard let bytes = try kind.encode(event, encoder) else {
                throw StoredEventsError.unregisteredEvent(typeName: String(reflecting: type))
            }
            return (name, kind.version, bytes)
        } catch let error as StoredEventsError {
            throw error
        } catch {
            throw .encodingFailed(typeName: kind.typeName, reason: String(describing: error))
        }
    }

    /// The event stored under `name` with schema `version` as `bytes`, or, when this binary
    /// cannot read it (no type under that name, a newer schema version, bytes that do not
    /// decode), `.undecodable` with the bytes and the reason. Never throws, never traps: what a
    /// store reads comes from other binaries.
    ///
    /// ```swift
    /// switch events.decode(name: row.typeName, version: row.version, bytes: row.payload) {
    /// case .event(let event): print(event)
    /// case .undecodable(let unreadable): print(unreadable.reason)
    /// }
    /// ```
    public func decode(name: String, version: Int, bytes: Data) -> EventSystem.StoredPost.Payload {
        func undecodable(_ reason: String) -> EventSystem.StoredPost.Payload {
            .undecodable(.init(typeName: name, schemaVersion: version, bytes: [UInt8](bytes), reason: reason))
        }
        guard let kind = kinds[name] else {
            return undecodable("no event type is registered under this name")
        }
        guard version >= 1 else { return undecodable("schema version \(version) is not a version") }
        guard version <= kind.version else {
            return undecodable(
                "stored with schema version \(version); this binary reads up to \(kind.version)")
        }
        do {
            return .event(try kind.decode(bytes))
        } catch {
            return undecodable("does not decode as \(kind.typeName): \(error)")
        }
    }
}
