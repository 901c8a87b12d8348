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
/// Which hop made a send is known only when the send is made in the task its enclosing send's
/// hops run in: that task is then inside the handler of the hop running now, which awaits it.
/// A send made in any other task (`Task {}`, `async let`, a task group) cannot tell which hop
/// of the enclosing send made it (the route may have moved on since): it counts towards the
/// forwarding limit while that send is under way, and is never taken for a forwarding loop.
/// Tasks are told apart by their address, read once per route: two tasks alive at once never
/// share one, and a route's task is alive while the route is under way.
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
    /// The task this route's hops (and so their handlers) run in, by its address.
    let task: UInt
    /// Whether this send was made in the task ``parent``'s hops run in: by the handler of the
    /// hop of `parent` running now, which awaits it. Only then does that hop say where this send
    /// comes from (see ``loopsBack(at:)``).
    let isMadeInParentHop: Bool
    /// The address of the responder whose hop runs now (or ran last); ``notStarted`` before the
    /// first hop, ``ended`` once the route is over. Written only by the route, read by the sends
    /// its handlers make.
    private let hop = Atomic<UInt>(Lineage.notStarted)

    private static var notStarted: UInt { 0 }
    /// Not an object's address: objects are aligned.
    private static var ended: UInt { 1 }

    /// The lineage of a send of `key` whose hops run in the current task: below the nearest
    /// enclosing send still under way, if any; otherwise at `depth` (a posted event's, see
    /// ``depthOfNewRoute``). `forwarding` when it is made through a relay. `maker` is the task
    /// that made the send, when it is not the current one (a send with a deadline runs its hops
    /// in a child task of the task that made it).
    init(of key: EventKey, forwarding: Bool, madeIn maker: UInt? = nil, depth: Int = 0) {
        let enclosing = Self.nearestUnderWay
        let task = Self.currentTask()
        self.parent = enclosing
        self.depth = enclosing.map { $0.depth + 1 } ?? depth
        self.key = key
        self.forwards = forwarding
        self.task = task
        self.isMadeInParentHop = enclosing.map { $0.task == (maker ?? task) } ?? false
    }

    /// The address of the task running now; 0 outside any task.
    @inline(__always)
    static func currentTask() -> UInt {
        // Only the bits are kept, never the reference: they are compared, never used to reach
        // the task. `UnsafeCurrentTask` is the task's reference and nothing else.
        withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
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
    /// still under way, handles an event of the same kind and made this send: visiting it would
    /// run that handler again inside itself, and forward again. Only a forwarding send can loop
    /// back: a handler's own send (``Responder/send(_:options:)``) is a new event, free to pass
    /// through responders whose handlers run (reentrancy), and bounded by the forwarding limit
    /// alone.
    ///
    /// The enclosing sends are followed only while each was made in its parent's hop (see
    /// ``isMadeInParentHop``): past a send made in another task, which hop made it is unknown,
    /// and a hop running there now may have nothing to do with it.
    @inline(__always)
    func loopsBack(at responder: any Responder) -> Bool {
        guard forwards, isMadeInParentHop else { return false }
        let address = UInt(bitPattern: ObjectIdentifier(responder))
        var link = self
        while link.isMadeInParentHop, let send = link.parent {
            if send.key == key, send.hop.load(ordering: .relaxed) == address { return true }
            link = send
        }
        return false
    }
}
