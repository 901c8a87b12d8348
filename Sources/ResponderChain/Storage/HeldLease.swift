/// The lease a claimed post is held under in its post office, as later claims of its key find
/// it: a pure value, changed under its ledger entry's lock.
///
/// ```
///  claimed ──move(to:inOrder:)──▶ under a later claim's lease (while still in its key's order)
///     │
///     ├──fix()──▶ fixed: a fenced write was checked against the lease; it no longer moves
///     └──end()──▶ ended: its end went out under the lease (and the leases it kept)
/// ```
struct HeldLease {
    /// What ``move(to:)`` did.
    enum Move: Equatable {
        /// The post is held under the new lease now; it was held under `previous`.
        case moved(from: EventSystem.Lease)
        /// The post stays under its lease: it is out of order under the new claim, a fenced
        /// write of its delivery was checked against its lease, or it has ended.
        case stays
        /// The post was never claimed here: the office stored it and has not yet kept it for a
        /// claim (the claim came between the two).
        case notClaimed
    }

    /// The lease the post is held under.
    var lease: EventSystem.Lease?
    /// Whether a fenced write was checked against ``lease``, or the post ended under it.
    private var isFixed = false
    private var hasEnded = false
    /// Later claims' leases that wait for the post's end: claims that stopped their key's
    /// delivery at it (see ``PostOffice/adopt(_:system:)``).
    private var keptLeases: [EventSystem.Lease] = []

    init(_ lease: EventSystem.Lease? = nil) {
        self.lease = lease
    }

    /// Holds the post under `lease`, a later claim of its key, if it is `inOrder` there and
    /// its lease is not fixed.
    mutating func move(to lease: EventSystem.Lease, inOrder: Bool) -> Move {
        guard let previous = self.lease else { return .notClaimed }
        guard inOrder, !isFixed else { return .stays }
        self.lease = lease
        return .moved(from: previous)
    }

    /// Fixes the post under its lease and returns it: a fenced write is checked against it,
    /// and the post's end goes out under it, whatever a later claim of its key does. (A write
    /// refused under a lapsed lease must not be followed by a finish under a newer one: the
    /// post would be recorded ended without its effect.)
    mutating func fix() -> EventSystem.Lease? {
        isFixed = true
        return lease
    }

    /// Keeps `lease`, a later claim's, until the post ends; `false` if it has ended already.
    mutating func keep(_ lease: EventSystem.Lease) -> Bool {
        guard !hasEnded else { return false }
        keptLeases.append(lease)
        return true
    }

    /// The post ends: returns the lease its end goes out under, and every lease that ends
    /// with it (that one and those it kept).
    mutating func end() -> (lease: EventSystem.Lease?, ending: [EventSystem.Lease]) {
        isFixed = true
        hasEnded = true
        defer { keptLeases = [] }
        return (lease, (lease.map { [$0] } ?? []) + keptLeases)
    }
}
