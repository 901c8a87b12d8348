import ResponderChain

internal import Synchronization

/// The identities the responders of another process have in this one: one stand-in object per
/// remote responder (identity and label), so that a ``ResponderID`` naming one stays the same
/// from one outcome to the next and differs from every other.
///
/// The directory keeps at most ``capacity`` stand-ins. A remote responder's identity is what the
/// other process sends, so a long-lived link to a process that makes responders as it goes (or a
/// peer that sends made-up identities) would otherwise grow it without end. Past the capacity,
/// the half used longest ago are forgotten: a forgotten responder is like a responder of this
/// process that was freed, whose ``ResponderID`` is unique only while it lives; seen again, it
/// gets a new identity.
final class RemoteResponderDirectory: Sendable {
    /// What a remote responder's identity is taken from in this process.
    private final class StandIn: Sendable {}

    private struct Entry {
        let standIn: StandIn
        var lastUse: UInt64
    }

    private struct Table {
        var entries: [WireResponder: Entry] = [:]
        var uses: UInt64 = 0
    }

    /// The most remote responders the directory keeps identities for.
    let capacity: Int
    private let table = Mutex(Table())

    /// A directory that keeps the identities of at most `capacity` remote responders.
    init(capacity: Int = 4_096) {
        precondition(capacity >= 2, "a directory keeps at least two responders")
        self.capacity = capacity
    }

    /// The identity of `responder` in this process.
    func id(of responder: WireResponder) -> ResponderID {
        let standIn = table.withLock { table in
            table.uses += 1
            if let index = table.entries.index(forKey: responder) {
                table.entries.values[index].lastUse = table.uses
                return table.entries.values[index].standIn
            }
            if table.entries.count >= capacity { Self.forgetOlderHalf(of: &table) }
            let new = StandIn()
            table.entries[responder] = Entry(standIn: new, lastUse: table.uses)
            return new
        }
        return ResponderID(objectID: ObjectIdentifier(standIn), label: responder.label)
    }

    /// How many remote responders the directory holds identities for.
    var count: Int { table.withLock { $0.entries.count } }

    /// Forgets the half of the entries used longest ago: one sort per `capacity / 2` new
    /// responders.
    private static func forgetOlderHalf(of table: inout Table) {
        let byUse = table.entries.map { ($0.key, $0.value.lastUse) }.sorted { $0.1 < $1.1 }
        for (responder, _) in byUse.prefix(byUse.count / 2) { table.entries[responder] = nil }
    }
}
