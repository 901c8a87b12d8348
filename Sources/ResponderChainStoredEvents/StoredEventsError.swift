/// Why ``StoredEvents/register(_:as:version:upcasting:readingAheadTo:)`` refused a registration, or
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
    /// An upcast of the event registered under this name reads a version that is not older
    /// than the current one (or is below 1).
    case upcastVersionOutOfRange(String, version: Int, current: Int)
    /// Two upcasts of the event registered under this name read the same version.
    case duplicateUpcast(String, version: Int)
    /// The upcasts of the event registered under this name skip this version: the versions
    /// from the oldest upcast to the current one need one step each.
    case missingUpcast(String, version: Int)
    /// The upcast from this version makes a shape (`makes`) that is not the one the next step
    /// reads, or, for the last step, not the current type (`nextReads`).
    case upcastShapesDiffer(String, version: Int, makes: String, nextReads: String)
    /// More upcasts than ``EventUpcast/maximumSteps`` for the event registered under this name.
    case tooManyUpcasts(String, count: Int)
    /// The read-ahead declared for the event registered under this name is older than the
    /// version it writes.
    case readAheadBelowVersion(String, readAhead: Int, version: Int)

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
        case .upcastVersionOutOfRange(let name, let version, let current):
            "the upcast of \"\(name)\" from version \(version) reads no version from 1 to \(current - 1), "
                + "the ones older than its current version \(current)"
        case .duplicateUpcast(let name, let version):
            "\"\(name)\" has two upcasts from version \(version)"
        case .missingUpcast(let name, let version):
            "\"\(name)\" has no upcast from version \(version), between its oldest upcast and its current version"
        case .upcastShapesDiffer(let name, let version, let makes, let nextReads):
            "the upcast of \"\(name)\" from version \(version) makes \(makes), but the next step reads \(nextReads)"
        case .readAheadBelowVersion(let name, let readAhead, let version):
            "\"\(name)\" reads ahead to version \(readAhead), below the version \(version) it writes"
        case .tooManyUpcasts(let name, let count):
            "\"\(name)\" has \(count) upcasts; at most \(EventUpcast.maximumSteps) are carried"
        }
    }
}
