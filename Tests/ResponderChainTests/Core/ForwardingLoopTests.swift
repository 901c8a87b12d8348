import ResponderChain
import ResponderChainTesting
import Testing

/// The event the tests forward.
private struct Order: Event { let id: Int }
/// Another kind of event, sent from inside an `Order` handler.
private struct Audit: Event {}

/// The entry of a chain: records what passes through it, then passes it on to `next`.
private actor Entry: Responder {
    nonisolated let label: String
    nonisolated let eventSystem: EventSystem
    let above: any Responder
    private(set) var passes = 0

    init(_ label: String, system: EventSystem, above: any Responder) {
        self.label = label
        self.eventSystem = system
        self.above = above
    }

    var next: (any Responder)? { above }

    static let strategies = Strategies<Entry> {
        $0.onAnyEvent { entry, _, _ in
            entry.passes += 1
            return .pass
        }
    }
}

/// The top of a chain that forwards every event to another chain through a relay, the
/// documented way, and throws that chain's outcome; without a relay it is a root that handles.
private actor Forwarder: Responder {
    nonisolated let label: String
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    private var relay: Relay?
    /// Set to make each forward go to a new forwarder of its own (a loop that never repeats).
    private var forwardsToNewForwarders = false
    private(set) var forwards = 0

    init(_ label: String, system: EventSystem) {
        self.label = label
        self.eventSystem = system
    }

    func forward(to entry: any Responder, system: EventSystem) {
        relay = Relay(entry: entry, label: "to \(entry.label)", system: system)
    }

    func forwardToNewForwarders() { forwardsToNewForwarders = true }

    static let strategies = Strategies<Forwarder> {
        $0.onAnyEvent { me, event, context in
            me.forwards += 1
            if me.forwardsToNewForwarders {
                let another = Forwarder("\(me.label)'", system: me.eventSystem)
                await another.forwardToNewForwarders()
                let relay = Relay(entry: another, label: "onwards", system: me.eventSystem)
                return .forwarded(await relay.send(event, options: SendOptions(info: context.info)))
            }
            guard let relay = me.relay else { return .handled }
            return .forwarded(
                await relay.send(event, options: SendOptions(deadline: context.deadline, info: context.info)))
        }
    }
}

/// `count` chains, each in its own system: `entries[i] → forwarders[i]`.
private struct Chains {
    let systems: [EventSystem]
    let entries: [Entry]
    let forwarders: [Forwarder]

    init(_ count: Int, forwardingLimit: Int = EventSystem.defaultForwardingLimit) {
        let systems = (0..<count).map { _ in EventSystem(forwardingLimit: forwardingLimit) }
        let forwarders = (0..<count).map { Forwarder("forwarder\($0)", system: systems[$0]) }
        self.entries = (0..<count).map { Entry("entry\($0)", system: systems[$0], above: forwarders[$0]) }
        self.systems = systems
        self.forwarders = forwarders
    }

    /// Makes chain `i` forward to chain `j`.
    func link(_ i: Int, to j: Int) async {
        await forwarders[i].forward(to: entries[j], system: systems[j])
    }
}

@Suite(
    "Forwarding loops: an event forwarded back to where it is being forwarded from", .timeLimit(.minutes(1)))
struct ForwardingLoopTests {
    @Test(
        "two systems forwarding into each other end cycleDetected where the loop closes, each forwarder run once, with a deadline (whose hops run in a task of their own) or without",
        arguments: [false, true]
    )
    func loopBetweenTwoSystems(withDeadline: Bool) async throws {
        let chains = Chains(2)
        await chains.link(0, to: 1)
        await chains.link(1, to: 0)

        let options = withDeadline ? SendOptions(deadline: EventSystem.default.now + .seconds(30)) : .default
        let outcome = await chains.entries[0].send(Order(id: 1), options: options)

        let cycle = try #require(outcome.cycleDetectedDetails)
        #expect(cycle.isForwardingLoop)
        #expect(cycle.repeated == ResponderID(chains.forwarders[0]))
        #expect(cycle.closedBy == ResponderID(chains.entries[0]))
        #expect(await chains.forwarders[0].forwards == 1)
        #expect(await chains.forwarders[1].forwards == 1)
        // entry0 → forwarder0 ⇒ entry1 → forwarder1 ⇒ entry0, then forwarder0 again: refused.
        #expect(outcome.hops == 5)
        #expect(await chains.entries[0].passes == 2)
        #expect(outcome.description.contains("through forwarding"))
    }

    @Test("a forwarder that forwards to itself ends cycleDetected at once")
    func loopOntoItself() async throws {
        let chains = Chains(1)
        await chains.link(0, to: 0)

        let outcome = await chains.forwarders[0].send(Order(id: 1))

        let cycle = try #require(outcome.cycleDetectedDetails)
        #expect(cycle.isForwardingLoop)
        #expect(cycle.repeated == ResponderID(chains.forwarders[0]))
        #expect(await chains.forwarders[0].forwards == 1)
    }

    @Test("a deep but legal forwarding chain through ten systems in a row still ends handled")
    func tenSystemsInARow() async throws {
        let chains = Chains(10)
        for index in 0..<9 { await chains.link(index, to: index + 1) }

        let outcome = await chains.entries[0].send(Order(id: 1))

        let handled = try #require(outcome.handledDetails)
        #expect(handled.stoppedAt == ResponderID(chains.forwarders[9]))
        #expect(outcome.hops == 20)
        for forwarder in chains.forwarders { #expect(await forwarder.forwards == 1) }
    }

    @Test(
        "forwarding that never repeats a responder is stopped by the system's forwarding limit, with its own outcome",
        arguments: [1, 4, EventSystem.defaultForwardingLimit]
    )
    func forwardingLimit(limit: Int) async throws {
        let system = EventSystem(forwardingLimit: limit)
        let first = Forwarder("first", system: system)
        await first.forwardToNewForwarders()

        let outcome = await first.send(Order(id: 1))

        let rejection = try #require(outcome.rejectedDetails)
        #expect(rejection.reason == .forwardingLimitReached(limit: limit))
        // The first send and `limit` nested ones ran one hop each; the next was refused.
        #expect(outcome.hops == limit + 1)
        #expect(outcome.description.contains("forwarding limit of \(limit) reached"))
    }

    @Test("a send of another kind of event from a handler passes through the same responder")
    func anotherEventPassesThrough() async throws {
        let system = EventSystem()
        let auditor = Auditor(system: system)

        let outcome = await auditor.send(Order(id: 1))

        #expect(outcome.kind == .handled)
        #expect(await auditor.auditOutcome?.kind == .handled)
    }

    @Test(
        "a send made by a task a handler started, after the handler's send ended, is not part of its lineage"
    )
    func tasksOutlivingTheHandlerStartAfresh() async throws {
        let system = EventSystem()
        let starter = TaskStarter(system: system)

        let outcome = await starter.send(Order(id: 1))
        #expect(outcome.kind == .handled)
        starter.release.open()

        let later = try #require(await starter.startedTask?.value)
        #expect(later.kind == .handled)
        #expect(await starter.handled == 2)
    }

    @Test(
        "a task a handler started, relaying a fresh event to a responder where the send it came from is parked now, is not a forwarding loop"
    )
    func taskRelayingToWhereTheSendMovedOnIsNoLoop() async throws {
        let system = EventSystem()
        let parker = Parker(system: system)
        let passer = TaskPasser(system: system, above: parker)

        let sending = Task { await passer.send(Order(id: 1)) }
        // The send has moved on from the passer and is parked in the parker's handler.
        try await parker.parked.waitForArrivals(1)
        let task = try #require(await passer.startedTask)
        passer.release.open()
        let later = await task.value

        #expect(later.cycleDetectedDetails == nil)
        #expect(later.kind == .handled)
        parker.parked.open()
        #expect(await sending.value.kind == .handled)
        #expect(await parker.handled == [2, 1])
    }

    @Test(
        "forwarding to itself from another task while the send it came from is under way ends at the forwarding limit",
        arguments: [ForwardingTask.asyncLet, .taskGroup, .unstructured]
    )
    func forwardingFromAnotherTaskEndsAtTheLimit(task: ForwardingTask) async throws {
        let limit = 4
        let system = EventSystem(forwardingLimit: limit)
        let forwarder = TaskForwarder(system: system, through: task)

        let outcome = await forwarder.send(Order(id: 1))

        let rejection = try #require(outcome.rejectedDetails)
        #expect(rejection.reason == .forwardingLimitReached(limit: limit))
        #expect(outcome.hops == limit + 1)
        #expect(await forwarder.started == limit + 1)
        #expect(await forwarder.ended == limit + 1)
    }

    @Test(
        "forwarding to itself through detached tasks is seen by neither check; a deadline carried over ends every forward timed out, and nothing runs on"
    )
    func forwardingThroughDetachedTasksEndsAtTheDeadline() async throws {
        let limit = 4
        let system = EventSystem(forwardingLimit: limit)
        // Past the forwarding limit (no lineage reaches a detached task), a forward parks until
        // the deadline wakes it.
        let forwarder = TaskForwarder(system: system, through: .detached, parkingAt: limit + 2)

        let outcome = await forwarder.send(
            Order(id: 1), options: SendOptions(deadline: EventSystem.default.now + .seconds(3)))

        #expect(outcome.kind == .timedOut)
        #expect(forwarder.parked.arrivals == 1)
        #expect(await forwarder.started == limit + 2)
        // Each forward waited for the next one's outcome: all of them have ended, and none is
        // left to start another.
        #expect(await forwarder.ended == limit + 2)
    }
}

/// How ``TaskForwarder`` reaches the next forward.
enum ForwardingTask: String, CustomTestStringConvertible, Sendable {
    case asyncLet = "async let"
    case taskGroup = "a task group"
    case unstructured = "Task {}"
    case detached = "Task.detached"

    var testDescription: String { rawValue }
}

/// A root that forwards every `Order` to itself through a relay, from another task
/// (`through`), carrying the deadline over, and waits for the forward's outcome; the forward
/// numbered `parkingAt` parks instead.
private actor TaskForwarder: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    let through: ForwardingTask
    /// The forward, counted from 1, whose handler parks at `parked` instead of forwarding.
    let parkingAt: Int?
    let parked = Gate()
    /// Forwards begun and ended (their handlers returned or threw).
    private(set) var started = 0
    private(set) var ended = 0

    init(system: EventSystem, through: ForwardingTask, parkingAt: Int? = nil) {
        self.eventSystem = system
        self.through = through
        self.parkingAt = parkingAt
    }

    static let strategies = Strategies<TaskForwarder> {
        $0.on(Order.self) { me, order, context in
            me.started += 1
            defer { me.ended += 1 }
            if me.started == me.parkingAt { try await me.parked.pass() }
            let relay = Relay(entry: me, label: "again", system: me.eventSystem)
            let options = SendOptions(deadline: context.deadline, info: context.info)
            let outcome: Outcome
            switch me.through {
            case .asyncLet:
                async let forwarded = relay.send(order, options: options)
                outcome = await forwarded
            case .taskGroup:
                outcome = await withTaskGroup(of: Outcome.self) { group in
                    group.addTask { await relay.send(order, options: options) }
                    return await group.next()!
                }
            case .unstructured:
                outcome = await Task { await relay.send(order, options: options) }.value
            case .detached:
                outcome = await Task.detached { await relay.send(order, options: options) }.value
            }
            return .forwarded(outcome)
        }
    }
}

/// A root whose handler parks `Order(id: 1)` at `parked` and handles every `Order` at once
/// otherwise.
private actor Parker: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    let parked = Gate()
    private(set) var handled: [Int] = []

    init(system: EventSystem) { self.eventSystem = system }

    static let strategies = Strategies<Parker> {
        $0.on(Order.self) { me, order, _ in
            if order.id == 1 { try await me.parked.pass() }
            me.handled.append(order.id)
            return .handled
        }
    }
}

/// A responder below `above` whose first `Order` handler starts a task that, once `release`
/// opens, relays a fresh `Order` to `above`; it passes every `Order` on.
private actor TaskPasser: Responder {
    nonisolated let eventSystem: EventSystem
    let above: any Responder
    let release = Gate()
    private(set) var startedTask: Task<Outcome, Never>?
    var next: (any Responder)? { above }

    init(system: EventSystem, above: any Responder) {
        self.eventSystem = system
        self.above = above
    }

    static let strategies = Strategies<TaskPasser> {
        $0.on(Order.self) { me, order, _ in
            if me.startedTask == nil {
                let relay = Relay(entry: me.above, label: "later", system: me.eventSystem)
                me.startedTask = Task {
                    try? await me.release.pass()
                    return await relay.send(Order(id: order.id + 1))
                }
            }
            return .pass
        }
    }
}

/// A root whose `Order` handler sends an `Audit` from itself and waits for it.
private actor Auditor: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    private(set) var auditOutcome: Outcome?

    init(system: EventSystem) { self.eventSystem = system }

    static let strategies = Strategies<Auditor> {
        $0.on(Order.self) { me, _, _ in
            me.auditOutcome = await me.send(Audit())
            return .handled
        }
        $0.on(Audit.self) { _, _, _ in .handled }
    }
}

/// A root whose first `Order` handler starts a task that, once released, sends another `Order`
/// through the same responder; every `Order` is handled.
private actor TaskStarter: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    let release = Gate()
    private(set) var startedTask: Task<Outcome, Never>?
    private(set) var handled = 0

    init(system: EventSystem) { self.eventSystem = system }

    static let strategies = Strategies<TaskStarter> {
        $0.on(Order.self) { me, order, _ in
            me.handled += 1
            if me.startedTask == nil {
                me.startedTask = Task {
                    try? await me.release.pass()
                    return await me.send(Order(id: order.id + 1))
                }
            }
            return .handled
        }
    }
}
