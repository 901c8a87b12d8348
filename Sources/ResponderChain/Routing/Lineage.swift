import Synchronization

/// Where a send stands among the sends of its task: the sends, still under way, whose handlers
/// made it (a handler that forwards its event through a ``Relay`` or a link to another chain, or
/// that sends another event), and the hop each of them is at.
///
/// Every route binds its lineage in a task-local while its hops run, so that a send a handler
/// makes (in its task, a child task, or a task it started) finds the send it was made from. The
/// route uses it to end what a `next` cycle check cannot see: a forwarding loop
/// (``Outcome/Cycle/isForwardingLoop``, see ``loopsBack(at:)``) and nesting deeper than
/// ``EventSystem/forwardingLimit``.
///
/// A send whose enclosing sends have all ended starts a lineage of its own, and so does a posted
/// event's delivery, which inherits nothing from the poster but its depth: a post made inside a
/// route still under way records ``depthOfNewRoute`` and its delivery's route starts there, so
/// that the forwarding limit bounds loops through posts as it bounds sends.
final class Lineage: Sendable {
    /// The lineage of the route running in the current task, if any.
    @TaskLocal static var current: Lineage?

    /// The send this one was made from, if it was still under way when this one started.
    let parent: Lineage?
    /// How many enclosing sends were under way when this one started: 0 for a send made outside
    /// any handler.
    let depth: Int
    /// The kind of event this send carries.
    let key: EventKey
    /// Whether the send forwards the event of the handler that made it: it is made through a
    /// ``Relay``, the way a chain hands its event to another one.
    let forwards: Bool
    /// The address of the responder whose hop runs now (or ran last); ``notStarted`` before the
    /// first hop, ``ended`` once the route is over. Written only by the route, read by the sends
    /// its handlers make.
    private let hop = Atomic<UInt>(Lineage.notStarted)

    private static var notStarted: UInt { 0 }
    /// Not an object's address: objects are aligned.
    private static var ended: UInt { 1 }

    /// The lineage of a send of `key` that starts in the current task: below the nearest
    /// enclosing send still under way, if any; otherwise at `depth` (a posted event's, see
    /// ``depthOfNewRoute``). `forwarding` when it is made through a relay.
    init(of key: EventKey, forwarding: Bool, depth: Int = 0) {
        let enclosing = Self.nearestUnderWay
        self.parent = enclosing
        self.depth = enclosing.map { $0.depth + 1 } ?? depth
        self.key = key
        self.forwards = forwarding
    }

    /// The route of the current task still under way that a send made now would be nested in.
    private static var nearestUnderWay: Lineage? {
        var enclosing = current
        while let candidate = enclosing, !candidate.isUnderWay { enclosing = candidate.parent }
        return enclosing
    }

    /// The depth of a route that would start in the current task now: one below the nearest
    /// enclosing route still under way, 0 outside any. A post made here records it for its
    /// delivery's route.
    static var depthOfNewRoute: Int {
        nearestUnderWay.map { $0.depth + 1 } ?? 0
    }

    /// Whether the route is still running.
    var isUnderWay: Bool { hop.load(ordering: .relaxed) != Self.ended }

    /// Marks `responder`'s hop as the one running now.
    @inline(__always)
    func enter(_ responder: any Responder) {
        hop.store(UInt(bitPattern: ObjectIdentifier(responder)), ordering: .relaxed)
    }

    /// Marks the route over: sends made later from tasks it left behind start lineages of their
    /// own.
    func end() {
        hop.store(Self.ended, ordering: .relaxed)
    }

    /// Whether this send forwards its event back to a responder whose hop, in an enclosing send
    /// still under way, handles an event of the same kind: visiting it would run that handler
    /// again inside itself, and forward again. Only a forwarding send can loop back: a handler's
    /// own send (``Responder/send(_:options:)``) is a new event, free to pass through responders
    /// whose handlers run (reentrancy), and bounded by the forwarding limit alone.
    @inline(__always)
    func loopsBack(at responder: any Responder) -> Bool {
        guard forwards, parent != nil else { return false }
        let address = UInt(bitPattern: ObjectIdentifier(responder))
        var enclosing = parent
        while let send = enclosing {
            if send.key == key, send.hop.load(ordering: .relaxed) == address { return true }
            enclosing = send.parent
        }
        return false
    }
}
