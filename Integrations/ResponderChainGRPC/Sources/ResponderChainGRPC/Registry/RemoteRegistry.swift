public import ResponderChain

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
    /// How one registered event type is written and read.
    struct EventCoding: Sendable {
        let name: String
        let encode: @Sendable (any Event) throws -> Data
        let decode: @Sendable (Data) throws -> any Event
        /// The example's JSON, if one was registered.
        let example: Data?
    }

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

    private(set) var eventsByType: [ObjectIdentifier: EventCoding] = [:]
    private(set) var eventsByName: [String: EventCoding] = [:]
    private(set) var infoByName: [String: InfoCoding] = [:]
    private var infoKeys: Set<ObjectIdentifier> = []
    /// The ``InfoKey/name``s of the keys kept local.
    private(set) var localKeyNames: Set<String> = []

    /// An empty registry.
    public init() {}

    /// Registers `type` under `name`: events of this type may cross, and an event that arrives
    /// under `name` is read as one.
    ///
    /// - Parameter example: A value whose JSON is published with the names
    ///   (``RemoteRegistryNames/eventExamples``), so that a client in another language can see
    ///   the JSON this type reads; `nil` publishes none.
    /// - Throws: ``RemoteRegistryError/nameTaken(_:)`` if an event is already registered under
    ///   `name`, ``RemoteRegistryError/typeRegistered(_:)`` if `type` already is,
    ///   ``RemoteRegistryError/unusableExample(_:_:)`` if `example`'s JSON does not read back.
    public mutating func register<E: Event & Codable>(_ type: E.Type, as name: String, example: E? = nil)
        throws(RemoteRegistryError)
    {
        guard eventsByName[name] == nil else { throw .nameTaken(name) }
        guard eventsByType[ObjectIdentifier(type)] == nil else {
            throw .typeRegistered(String(describing: type))
        }
        let exampleJSON = try example.map { value throws(RemoteRegistryError) in
            try Self.json(of: value, as: name)
        }
        let coding = EventCoding(
            name: name,
            // Only called with an event of type E: the coding is looked up by the event's type.
            encode: { event in try JSONEncoder().encode(event as? E) },
            decode: { data in try JSONDecoder().decode(E.self, from: data) },
            example: exampleJSON)
        eventsByType[ObjectIdentifier(type)] = coding
        eventsByName[name] = coding
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
            events: eventsByName.keys.sorted(), info: infoByName.keys.sorted(),
            eventExamples: eventsByName.compactMapValues(\.example),
            infoExamples: infoByName.compactMapValues(\.example))
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

    /// What was refused.
    public var description: String {
        switch self {
        case .nameTaken(let name): "the name \"\(name)\" is already registered"
        case .typeRegistered(let type): "\(type) is already registered"
        case .unusableExample(let name, let what): "the example of \"\(name)\" cannot be published: \(what)"
        }
    }
}
