/// Why ``StoredEvents/register(_:as:version:)`` refused a registration, or
/// ``StoredEvents/encode(_:with:)`` an event.
///
/// ```swift
/// do { try events.register(OrderPlaced.self, as: "order-placed") } catch { print(error) }
/// ```
public enum StoredEventsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another event type is already registered under this name.
    case nameTaken(String, by: String)
    /// This event type is already registered, under the name given.
    case typeRegistered(String, as: String)
    /// The name is empty.
    case emptyName
    /// The schema version is below 1.
    case invalidVersion(Int)
    /// The event's type is not registered: it has no stored name.
    case unregisteredEvent(typeName: String)
    /// The event's type is registered but did not encode.
    case encodingFailed(typeName: String, reason: String)

    /// What was refused, as a sentence.
    public var description: String {
        switch self {
        case .nameTaken(let name, let type): "the stored-event name \"\(name)\" is taken by \(type)"
        case .typeRegistered(let type, let name): "\(type) is already registered as \"\(name)\""
        case .emptyName: "a stored event needs a name that is not empty"
        case .invalidVersion(let version): "a schema version starts at 1, not \(version)"
        case .unregisteredEvent(let type):
            "\(type) is not registered in the StoredEvents, so it has no stored name"
        case .encodingFailed(let type, let reason): "\(type) did not encode: \(reason)"
        }
    }
}
