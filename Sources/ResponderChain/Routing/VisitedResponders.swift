/// The responders one event has visited, to detect a cycle before any handler runs twice.
///
/// Short chains (the common case) are checked by a linear scan of a small array; a long chain
/// moves to a set once it passes `linearLimit` entries, so a 10,000-deep chain stays linear in
/// time.
struct VisitedResponders {
    private var recent: [ObjectIdentifier] = []
    private var set: Set<ObjectIdentifier>?

    private static var linearLimit: Int { 32 }

    /// Records `responder`; returns `false` if it was already visited.
    mutating func insert(_ responder: ObjectIdentifier) -> Bool {
        if set != nil {
            return set!.insert(responder).inserted
        }
        if recent.contains(responder) { return false }
        if recent.count < Self.linearLimit {
            if recent.isEmpty { recent.reserveCapacity(Self.linearLimit) }
            recent.append(responder)
        } else {
            var all = Set(recent)
            all.insert(responder)
            set = all
        }
        return true
    }
}
