/// The lease a claimed post is held under in its post office, as later claims of its key find
/// it: a pure value, changed under its ledger entry's lock.
///
/// ```
///  queued(under:) ──▶ movable ──move(to:notQueuedBefore:)──▶ movable, under a later claim's lease
///                        │
///                        ├──fix()──▶ fixed: a fenced write was checked against the lease
///                        └──end()──▶ ended: its end went out under the lease (and the leases it
///                                    kept end too)
/// ```
///
/// A post stays where it was queued in its key's lane, whatever lease it moves to: the lease it
/// was queued under tells where. Posts queued under one claim are in the lane in the claim's
/// order, and those of a later claim behind them.
struct HeldLease {
    /// What ``move(to:notQueuedBefore:)`` did.
    enum Move: Equatable {
        /// The post is held under the new lease now; it was held under `from`, and queued in
        /// its lane under the claim whose token is `queuedUnder`.
        case moved(from: EventSystem.Lease, queuedUnder: Int64)
        /// The post stays under its lease: it is out of order under the new claim, a fenced
        /// write of its delivery was checked against its lease, or it has ended.
        case stays
        /// The post was never claimed here: the office stored it and has not yet kept it for a
        /// claim (the claim came between the two).
        case notClaimed
    }

    private enum Phase {
        /// A later claim of the key may move the post to its lease.
        case movable
        /// A fenced write of the post's delivery was checked against ``lease``.
        case fixed
        /// The post's end went out under ``lease``.
        case ended
    }

    /// The lease the post is held under.
    private(set) var lease: EventSystem.Lease?
    /// The lease of the claim under which the post was queued in its lane.
    private var queuedUnder: EventSystem.Lease?
    private var phase = Phase.movable
    /// Later claims' leases that wait for the post's end: claims that stopped their key's
    /// delivery at it (see ``PostOffice/adopt(_:system:)``).
    private var keptLeases: [EventSystem.Lease] = []

    /// The post was queued in its lane under `lease` (`nil`: not claimed from a shared store).
    mutating func queued(under lease: EventSystem.Lease?) {
        self.lease = lease
        queuedUnder = lease
    }

    /// Holds the post under `lease`, a later claim of its key, unless its lease is fixed or it
    /// is out of order in that claim: queued under a claim before `token` (the token of the
    /// claim that queued the post before it in the claim), so ahead of a post the claim puts
    /// before it.
    mutating func move(to lease: EventSystem.Lease, notQueuedBefore token: Int64) -> Move {
        guard let previous = self.lease, let queuedUnder else { return .notClaimed }
        guard phase == .movable, queuedUnder.token >= token else { return .stays }
        self.lease = lease
        return .moved(from: previous, queuedUnder: queuedUnder.token)
    }

    /// Fixes the post under its lease and returns it: a fenced write is checked against it,
    /// and the post's end goes out under it, whatever a later claim of its key does. (A write
    /// refused under a lapsed lease must not be followed by a finish under a newer one: the
    /// post would be recorded ended without its effect.)
    mutating func fix() -> EventSystem.Lease? {
        if phase == .movable { phase = .fixed }
        return lease
    }

    /// Keeps `lease`, a later claim's, until the post ends; `false` if it has ended already.
    mutating func keep(_ lease: EventSystem.Lease) -> Bool {
        guard phase != .ended else { return false }
        keptLeases.append(lease)
        return true
    }

    /// The post ends: returns the lease its end goes out under, and every lease that ends
    /// with it (that one and those it kept).
    mutating func end() -> (lease: EventSystem.Lease?, ending: [EventSystem.Lease]) {
        phase = .ended
        defer { keptLeases = [] }
        return (lease, (lease.map { [$0] } ?? []) + keptLeases)
    }
}
