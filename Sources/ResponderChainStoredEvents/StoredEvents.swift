public import Foundation
public import ResponderChain

/// The event types a durable post store (`SQLitePostStore`, `PostgresPostStore`) may write, each under a stable name and a schema
/// version: a stored row names its event by that name, so that a later binary (where the type
/// may have moved, been renamed or removed) still knows what the row holds.
///
/// Events are encoded as JSON. Reading a row back gives the event, or, when this binary cannot
/// read it (no type under its name, a schema version newer than the registered one or older
/// than its oldest upcast, bytes that no longer decode, an upcast that throws),
/// `EventSystem.StoredPost.Payload.undecodable(_:)` with the row's bytes: the
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
        /// The newest version read: `version`, or the read-ahead declared.
        let readsUpTo: Int
        /// Encodes an event of this kind's type; `nil` for an event of another type.
        let encode: @Sendable (any Event, JSONEncoder) throws -> Data?
        /// Reads a row of the current version.
        let decode: @Sendable (Data, JSONDecoder) throws -> any Event
        /// The upcasts registered, which carry a row of an older version to the current type;
        /// `nil` when there are none, and the current type reads rows of every version up to
        /// its own.
        let upcasts: UpcastChain?
    }

    private var kinds: [String: Kind] = [:]
    private var namesByType: [ObjectIdentifier: String] = [:]

    /// No event types.
    public init() {}

    /// Registers `type` under `name`, written with schema version `version`, reading the rows of
    /// older versions through `upcasts`, and those of newer versions up to `readAhead` as `type`.
    ///
    /// Raise the version when the type's JSON changes so that an older binary would misread it:
    /// a row newer than the versions read is reported undecodable, never misread. A change that
    /// older rows still decode as (a new optional property, a new case nobody stored yet) needs
    /// no new version. With no upcasts, the current type reads the rows of every version up to
    /// its own; with upcasts, a row of a version from the oldest upcast's up is read as that
    /// version's shape and carried through every later step (see ``EventUpcast``), and a row
    /// older than the oldest upcast is undecodable: that version is retired.
    ///
    /// **Read-ahead.** A binary deployed before the one that writes a new version may declare
    /// that it reads it (`readAhead`): when the new version only adds what this type ignores
    /// (properties it does not decode), a row of it reads as `type`. Deploy the reading binary
    /// everywhere first, then the writing one; in between, old and new processes read each
    /// other's events both ways.
    ///
    /// ```swift
    /// try events.register(OrderPlaced.self, as: "order-placed", version: 2, upcasting: [
    ///     EventUpcast(from: 1, OrderPlacedV1.self) { OrderPlaced(id: $0.order, quantity: 1) }
    /// ])
    /// ```
    ///
    /// - Throws: ``StoredEventsError`` if the name is taken or empty, the type is registered
    ///   already, the version is below 1, the read-ahead below the version, or the upcasts do
    ///   not make one chain from the oldest of them to `type` (see
    ///   ``StoredEventsError/missingUpcast(_:version:)`` and the cases beside it).
    public mutating func register<E: Event & Codable>(
        _ type: E.Type, as name: String, version: Int = 1, upcasting upcasts: [EventUpcast] = [],
        readingAheadTo readAhead: Int? = nil
    ) throws(StoredEventsError) {
        guard !name.isEmpty else { throw .emptyName }
        guard version >= 1 else { throw .invalidVersion(version) }
        if let readAhead, readAhead < version {
            throw .readAheadBelowVersion(name, readAhead: readAhead, version: version)
        }
        let typeName = String(reflecting: type)
        if let existing = namesByType[ObjectIdentifier(type)] {
            throw .typeRegistered(typeName, as: existing)
        }
        if let taken = kinds[name] { throw .nameTaken(name, by: taken.typeName) }
        let chain = upcasts.isEmpty ? nil : try UpcastChain(upcasts, to: type, version: version, name: name)
        namesByType[ObjectIdentifier(type)] = name
        kinds[name] = Kind(
            typeName: typeName, version: version, readsUpTo: readAhead ?? version,
            encode: { event, encoder in
                guard let event = event as? E else { return nil }
                return try encoder.encode(event)
            },
            decode: { bytes, decoder in try decoder.decode(E.self, from: bytes) },
            upcasts: chain)
    }

    /// The registered names, sorted.
    public var names: [String] {
        kinds.keys.sorted()
    }

    /// The schema versions of the event registered under `name` that this registry reads: from
    /// its oldest upcast's (or 1, with none) to its current one, or its read-ahead; `nil` for a
    /// name registered to no type.
    ///
    /// ```swift
    /// events.versions(of: "order-placed")   // 1...3
    /// ```
    public func versions(of name: String) -> ClosedRange<Int>? {
        guard let kind = kinds[name] else { return nil }
        return (kind.upcasts?.oldest ?? 1)...kind.readsUpTo
    }

    /// The schema version the event registered under `name` is written with; `nil` for a name
    /// registered to no type.
    public func version(of name: String) -> Int? {
        kinds[name]?.version
    }

    /// The name `type` is registered under.
    public func name(of type: any Event.Type) -> String? {
        namesByType[ObjectIdentifier(type)]
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
        guard let name = namesByType[ObjectIdentifier(type)], let kind = kinds[name] else {
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
        guard version <= kind.readsUpTo else {
            return undecodable(
                "stored with schema version \(version); this binary reads up to \(kind.readsUpTo)")
        }
        let decoder = JSONDecoder()
        if version < kind.version, let upcasts = kind.upcasts {
            guard upcasts.reads(version) else {
                return undecodable(
                    "stored with schema version \(version); this binary reads versions "
                        + "\(upcasts.oldest) to \(kind.version) (no upcast from \(version))")
            }
            do throws(UpcastChain.Failure) {
                // The chain was checked to end in the registered type, an event.
                guard let event = try upcasts.upcast(bytes, from: version, with: decoder) as? any Event else {
                    throw .shapeMismatch(version: kind.version - 1)
                }
                return .event(event)
            } catch {
                switch error {
                case .undecodable(let version, let shape, let error):
                    return undecodable(
                        "does not decode as \(shape), the shape of version \(version): \(error)")
                case .stepThrew(let version, let error):
                    return undecodable("the upcast from version \(version) threw: \(error)")
                case .shapeMismatch(let version):
                    return undecodable("the upcast from version \(version) was given another shape")
                }
            }
        }
        do {
            return .event(try kind.decode(bytes, decoder))
        } catch {
            return undecodable("does not decode as \(kind.typeName): \(error)")
        }
    }
}
