public import ResponderChain
public import ResponderChainStoredEvents

internal import struct Foundation.Data
internal import class Foundation.JSONDecoder
internal import class Foundation.JSONEncoder

/// The events and the information that may cross between processes, each under a stable name
/// that both sides register.
///
/// Types do not cross a process boundary; names do. Each side registers the same names, for
/// `Codable` events and for information keys whose values are `Codable`. An event whose type is
/// not registered fails on the sending side, typed, before anything is sent (see
/// ``RemoteLinkError/unregisteredEvent(_:)``); so does information under a key that is neither
/// registered nor kept local (``keepLocal(_:)``). ``RemoteLink/checkRegistry()`` compares the two
/// sides' names at start-up.
///
/// ```swift
/// var registry = RemoteRegistry()
/// try registry.register(OrderPlaced.self, as: "orders.placed", example: OrderPlaced(sku: "A-1", quantity: 2))
/// try registry.register(info: CustomerID.self, as: "customer-id", example: "c-1")
/// registry.keepLocal(RequestStart.self)   // never sent; kept in this process's outcome
/// ```
///
/// **Examples publish the JSON shape.** A value registered with an `example` has that example's
/// JSON served with the names (``RemoteRegistryNames/eventExamples``,
/// ``RemoteRegistryNames/infoExamples``): a client written in another language reads there the
/// exact JSON the registered type decodes (every key the type's `Codable` conformance requires,
/// and no other shape), and builds its values from it.
public struct RemoteRegistry: Sendable {
    /// How one registered information key is written and read.
    struct InfoCoding: Sendable {
        let name: String
        /// The key's ``InfoKey/name`` (its type name), as ``EventInfo/keyNames`` reports it.
        let keyName: String
        /// The key's value in `info`, written, or `nil` when it has none.
        let encode: @Sendable (EventInfo) throws -> Data?
        /// Reads a value and sets it in `info`.
        let decode: @Sendable (Data, inout EventInfo) throws -> Void
        /// The example's JSON, if one was registered.
        let example: Data?
    }

    /// The event types, by name, with their schema versions and upcasts.
    private(set) var events = StoredEvents()
    /// The JSON of the example registered for an event name, by name.
    private var eventExamples: [String: Data] = [:]
    private(set) var infoByName: [String: InfoCoding] = [:]
    private var infoKeys: Set<ObjectIdentifier> = []
    /// The ``InfoKey/name``s of the keys kept local.
    private(set) var localKeyNames: Set<String> = []

    /// An empty registry.
    public init() {}

    /// Registers `type` under `name`: events of this type may cross, written with schema
    /// version `version`, and an event that arrives under `name` is read as one, from a value of
    /// that version, of an older one that `upcasts` carry to it (see ``EventUpcast``), or of a
    /// newer one up to `readAhead`, read as `type` (see
    /// `StoredEvents.register(_:as:version:upcasting:readingAheadTo:)`).
    ///
    /// A value that arrives with a schema version newer than `version` is refused before any
    /// handler runs (``RemoteRefusal/newerSchemaVersion(event:version:newest:)``); the names
    /// this side serves say which versions it reads (``RemoteRegistryNames/eventVersions``).
    ///
    /// ```swift
    /// try registry.register(
    ///     OrderPlaced.self, as: "orders.placed", version: 2,
    ///     upcasting: [EventUpcast(from: 1, OrderPlacedV1.self) { OrderPlaced(sku: $0.sku, quantity: 1) }])
    /// ```
    ///
    /// - Parameter example: A value whose JSON is published with the names
    ///   (``RemoteRegistryNames/eventExamples``), so that a client in another language can see
    ///   the JSON this type reads; `nil` publishes none.
    /// - Throws: ``RemoteRegistryError/nameTaken(_:)`` if an event is already registered under
    ///   `name`, ``RemoteRegistryError/typeRegistered(_:)`` if `type` already is,
    ///   ``RemoteRegistryError/unusableExample(_:_:)`` if `example`'s JSON does not read back,
    ///   ``RemoteRegistryError/invalidVersions(_:)`` for an empty name, a version below 1, a
    ///   read-ahead below it, or upcasts that do not make one chain to `type`.
    public mutating func register<E: Event & Codable>(
        _ type: E.Type, as name: String, example: E? = nil, version: Int = 1,
        upcasting upcasts: [EventUpcast] = [], readingAheadTo readAhead: Int? = nil
    ) throws(RemoteRegistryError) {
        guard events.versions(of: name) == nil else { throw .nameTaken(name) }
        guard events.name(of: type) == nil else { throw .typeRegistered(String(describing: type)) }
        let exampleJSON = try example.map { value throws(RemoteRegistryError) in
            try Self.json(of: value, as: name)
        }
        do {
            try events.register(
                type, as: name, version: version, upcasting: upcasts, readingAheadTo: readAhead)
        } catch {
            throw .invalidVersions(error)
        }
        eventExamples[name] = exampleJSON
    }

    /// Registers the information key `key` under `name`: its values travel with events both
    /// ways (to the other process, and back in the outcome).
    ///
    /// - Parameter example: A value whose JSON is published with the names
    ///   (``RemoteRegistryNames/infoExamples``); `nil` publishes none.
    /// - Throws: ``RemoteRegistryError/nameTaken(_:)`` if a key is already registered under
    ///   `name`, ``RemoteRegistryError/typeRegistered(_:)`` if `key` already is (or is kept
    ///   local), ``RemoteRegistryError/unusableExample(_:_:)`` if `example`'s JSON does not read
    ///   back.
    public mutating func register<Key: InfoKey>(
        info key: Key.Type, as name: String, example: Key.Value? = nil
    )
        throws(RemoteRegistryError)
    where Key.Value: Codable {
        guard infoByName[name] == nil else { throw .nameTaken(name) }
        let exampleJSON = try example.map { value throws(RemoteRegistryError) in
            try Self.json(of: value, as: name)
        }
        guard infoKeys.insert(ObjectIdentifier(key)).inserted else { throw .typeRegistered(Key.name) }
        infoByName[name] = InfoCoding(
            name: name,
            keyName: Key.name,
            encode: { info in try info[key].map { try JSONEncoder().encode($0) } },
            decode: { data, info in info[key] = try JSONDecoder().decode(Key.Value.self, from: data) },
            example: exampleJSON)
    }

    /// `example`'s JSON (keys sorted), checked to read back as its type: the shape published for
    /// `name`.
    private static func json<Value: Codable>(of example: Value, as name: String) throws(RemoteRegistryError)
        -> Data
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let json = try encoder.encode(example)
            _ = try JSONDecoder().decode(Value.self, from: json)
            return json
        } catch {
            throw .unusableExample(name, "\(error)")
        }
    }

    /// Keeps `key`'s values in this process: they are not sent, and a send that carries them is
    /// not refused for it. The outcome still has them (the other side's values overlay this
    /// side's).
    public mutating func keepLocal<Key: InfoKey>(_ key: Key.Type) {
        localKeyNames.insert(Key.name)
    }

    /// The names of the registered events and information keys: what ``RemoteLink/checkRegistry()``
    /// compares with the other side's.
    public var names: RemoteRegistryNames {
        RemoteRegistryNames(
            events: events.names, info: infoByName.keys.sorted(),
            eventExamples: eventExamples,
            infoExamples: infoByName.compactMapValues(\.example),
            eventVersions: Dictionary(
                uniqueKeysWithValues: events.names.compactMap { name in
                    events.versions(of: name).map { (name, $0) }
                }),
            wireVersions: WireFormat.readVersions)
    }
}

/// A registration ``RemoteRegistry`` refused.
public enum RemoteRegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Something is already registered under this name.
    case nameTaken(String)
    /// This type is already registered (under another name).
    case typeRegistered(String)
    /// The example given for this name could not be written as JSON, or its JSON does not read
    /// back as its type (a `Codable` conformance that does not read what it writes): what.
    case unusableExample(String, String)
    /// The event's name is empty, its schema version is below 1, or its upcasts do not make one
    /// chain to its type: the refusal of the event registry beneath.
    case invalidVersions(StoredEventsError)

    /// What was refused.
    public var description: String {
        switch self {
        case .nameTaken(let name): "the name \"\(name)\" is already registered"
        case .typeRegistered(let type): "\(type) is already registered"
        case .unusableExample(let name, let what): "the example of \"\(name)\" cannot be published: \(what)"
        case .invalidVersions(let refusal): "\(refusal)"
        }
    }
}
