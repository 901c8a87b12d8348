internal import ResponderChainStoredEvents

/// What an ``SQLitePostStore`` throws for input it cannot keep or a file it cannot use.
///
/// The post office turns a throw from ``SQLitePostStore/store(_:)`` into rejected posts
/// (`Outcome.Rejection.Reason.notStored`), so that nothing is accepted that was not written.
///
/// ```swift
/// do { _ = try store.store(posts) } catch let error as SQLitePostStoreError { print(error) }
/// ```
public enum SQLitePostStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event's type is not registered in the store's ``StoredEvents``: it has no stored name.
    case unregisteredEvent(typeName: String)
    /// The event's type is registered but did not encode.
    case encodingFailed(typeName: String, reason: String)
    /// The file was written by a newer version of this package (its schema version is higher
    /// than this binary knows): it is left untouched.
    case newerSchema(found: Int, known: Int)
    /// A stored row is damaged beyond reading (its identifier or outcome is malformed).
    case malformedRow(sequence: Int64, reason: String)
    /// A setting is out of range (a WAL size limit or retention that is not positive).
    case invalidSetting(String)

    /// What went wrong, as a sentence.
    public var description: String {
        switch self {
        case .unregisteredEvent(let type):
            "\(type) is not registered in the store's StoredEvents, so it has no stored name"
        case .encodingFailed(let type, let reason): "\(type) did not encode: \(reason)"
        case .newerSchema(let found, let known):
            "the file's schema version is \(found), and this binary knows versions up to \(known)"
        case .malformedRow(let sequence, let reason): "stored row \(sequence) is malformed: \(reason)"
        case .invalidSetting(let reason): "invalid setting: \(reason)"
        }
    }
}

extension SQLitePostStoreError {
    /// The store's error for an event its ``StoredEvents`` would not encode.
    init(_ error: StoredEventsError) {
        switch error {
        case .unregisteredEvent(let typeName): self = .unregisteredEvent(typeName: typeName)
        case .encodingFailed(let typeName, let reason):
            self = .encodingFailed(typeName: typeName, reason: reason)
        default: self = .encodingFailed(typeName: "", reason: error.description)
        }
    }
}
