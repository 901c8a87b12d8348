/// Typed information added to an event by the hops it has passed.
///
/// Every hop sees what the hops below it added; the value is copied as the event travels, so the
/// sender's own copy never changes. When two hops set the same key, the later (higher) hop wins.
///
/// ```swift
/// context.info[OrderID.self] = order.id
/// if let id = context.info[OrderID.self] { … }
/// ```
public struct EventInfo: Sendable, CustomStringConvertible {
    private struct Entry: Sendable {
        let name: String
        let value: any Sendable
    }

    private var storage: [ObjectIdentifier: Entry] = [:]

    /// Empty information.
    public init() {}

    /// The value stored under `key`, or `nil`. Setting `nil` removes it.
    public subscript<Key: InfoKey>(key: Key.Type) -> Key.Value? {
        get { storage[ObjectIdentifier(key)]?.value as? Key.Value }
        set {
            if let newValue {
                storage[ObjectIdentifier(key)] = Entry(name: Key.name, value: newValue)
            } else {
                storage[ObjectIdentifier(key)] = nil
            }
        }
    }

    /// This information with `other`'s entries set over it: where both have a key, `other`'s
    /// value wins.
    func overlaid(with other: EventInfo) -> EventInfo {
        var merged = self
        merged.storage.merge(other.storage) { _, theirs in theirs }
        return merged
    }

    /// Whether `key` has a value.
    public func contains<Key: InfoKey>(_ key: Key.Type) -> Bool {
        storage[ObjectIdentifier(key)] != nil
    }

    /// Whether no information was added.
    public var isEmpty: Bool { storage.isEmpty }

    /// How many keys have values.
    public var count: Int { storage.count }

    /// The names of the keys with values, sorted.
    public var keyNames: [String] { storage.values.map(\.name).sorted() }

    /// Each key's name and its value as text, sorted by name (for traces and logs).
    public var entries: [(name: String, value: String)] {
        storage.values
            .map { (name: $0.name, value: String(describing: $0.value)) }
            .sorted { $0.name < $1.name }
    }

    /// The entries present here that are absent or different in `earlier`, by name and printed
    /// value: what a hop added or replaced.
    public func added(since earlier: EventInfo) -> [(name: String, value: String)] {
        storage.compactMap { key, entry in
            let printed = String(describing: entry.value)
            if let old = earlier.storage[key], String(describing: old.value) == printed { return nil }
            return (name: entry.name, value: printed)
        }
        .sorted { $0.name < $1.name }
    }

    /// ``added(since:)`` as the entries a trace reports, with a fast path for the common hop
    /// that added nothing: when this information still shares its storage with `earlier` (a copy
    /// taken before the hop, never written to since), nothing can have changed, and no value is
    /// printed.
    func addedInfo(since earlier: EventInfo) -> [Hop.AddedInfo] {
        if sharesStorage(with: earlier) { return [] }
        return added(since: earlier).map { Hop.AddedInfo(name: $0.name, value: $0.value) }
    }

    /// Whether both values hold the very same storage. Copy-on-write makes that a proof of equal
    /// contents: storage shared by two values is copied before either is written to.
    private func sharesStorage(with other: EventInfo) -> Bool {
        withUnsafeBytes(of: storage) { mine in
            withUnsafeBytes(of: other.storage) { theirs in mine.elementsEqual(theirs) }
        }
    }

    /// `[OrderID: 42, Session: "s-1"]`.
    public var description: String {
        "[" + entries.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
