import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

/// The event the tests forward through posts; `id` counts the posts of one chain.
private struct Order: Event { let id: Int }

/// Every ticket a test's posts made, to check that each has exactly one outcome.
private actor TicketLog {
    private(set) var tickets: [Ticket] = []

    func record(_ ticket: Ticket) { tickets.append(ticket) }

    /// Whether every ticket holds its outcome.
    var allFinished: Bool { tickets.allSatisfy { $0.finishedOutcome != nil } }
}

/// A root that forwards each `Order` to itself through the post of a fresh relay and returns the
/// outcome it awaited (`.forwarded`): a loop through posts. It gives up after `giveUpAfter`
/// forwards (it handles the order instead), so that a loop nothing else stops still ends.
private actor PostForwarder: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    let log = TicketLog()
    /// From a task the handler starts, instead of the handler itself.
    private let postsFromATask: Bool
    private let giveUpAfter: Int
    private(set) var forwards = 0

    init(system: EventSystem, giveUpAfter: Int, postsFromATask: Bool = false) {
        self.eventSystem = system
        self.giveUpAfter = giveUpAfter
        self.postsFromATask = postsFromATask
    }

    static let strategies = Strategies<PostForwarder> {
        $0.on(Order.self) { me, order, _ in
            guard me.forwards < me.giveUpAfter else { return .handled }
            me.forwards += 1
            let relay = Relay(entry: me, label: "onwards \(order.id)", system: me.eventSystem)
            let log = me.log
            guard me.postsFromATask else {
                let ticket = await relay.post(Order(id: order.id + 1))
                await log.record(ticket)
                return .forwarded(await ticket.outcome)
            }
            // The route waits for the task, so it is still under way when the task posts.
            let forwarded = Task {
                let ticket = await relay.post(Order(id: order.id + 1))
                await log.record(ticket)
                return await ticket.outcome
            }
            return .forwarded(await forwarded.value)
        }
    }
}

/// A root whose first order's handler starts a task and returns at once; the task posts order 1
/// once released, after that route has ended. Order 1 forwards once more through a relay's post
/// (order 2), which is handled.
private actor LateTaskStarter: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    let release = Gate()
    private(set) var startedTask: Task<Outcome, Never>?

    init(system: EventSystem) { self.eventSystem = system }

    static let strategies = Strategies<LateTaskStarter> {
        $0.on(Order.self) { me, order, _ in
            switch order.id {
            case 0:
                me.startedTask = Task {
                    try? await me.release.pass()
                    return await me.post(Order(id: 1)).outcome
                }
                return .handled
            case 1:
                // Through a relay: a post on its own lane would wait behind this one.
                let relay = Relay(entry: me, label: "onwards", system: me.eventSystem)
                return .forwarded(await relay.post(Order(id: 2)).outcome)
            default:
                return .handled
            }
        }
    }
}

/// A root that handles every order.
private actor Sink: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    init(system: EventSystem) { self.eventSystem = system }

    static let strategies = Strategies<Sink> {
        $0.on(Order.self) { _, _, _ in .handled }
    }
}

/// Middleware that forwards each order, before the handlers, to the same responder through the
/// post of a fresh relay, until it has done so `giveUpAfter` times.
private final class Reposter: HopMiddleware {
    let giveUpAfter: Int
    private let count = Atomic<Int>(0)

    init(giveUpAfter: Int) { self.giveUpAfter = giveUpAfter }

    var forwards: Int { count.load(ordering: .relaxed) }

    nonisolated(nonsending) func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: Next
    ) async throws -> Disposition {
        guard let order = event as? Order, count.add(1, ordering: .relaxed).newValue <= giveUpAfter else {
            return try await next(&context)
        }
        let relay = Relay(entry: responder, label: "reposted \(order.id)")
        return .forwarded(await relay.post(Order(id: order.id + 1)).outcome)
    }
}

@Suite("Forwarding through posts: a post made inside a route is nested in it", .timeLimit(.minutes(1)))
struct PostForwardingLimitTests {
    @Test(
        "a loop forwarding through the posts of fresh relays ends at the forwarding limit, every post with one outcome"
    )
    func postLoopEndsAtTheLimit() async throws {
        let limit = EventSystem.defaultForwardingLimit
        let system = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 64))
        // Without the limit the loop would go on; it gives up long after the limit instead.
        let forwarder = PostForwarder(system: system, giveUpAfter: limit * 4)

        let first = await forwarder.post(Order(id: 0))
        let outcome = await first.outcome

        let rejection = try #require(outcome.rejectedDetails)
        #expect(rejection.reason == .forwardingLimitReached(limit: limit))
        // The posts at depths 0 to `limit` ran their handler once each; the next was refused.
        #expect(await forwarder.forwards == limit + 1)
        let tickets = await forwarder.log.tickets
        #expect(tickets.count == limit + 1)
        #expect(await forwarder.log.allFinished)
        #expect(
            tickets.last?.finishedOutcome?.rejectedDetails?.reason == .forwardingLimitReached(limit: limit))
        #expect(system.outstandingPosts == 0)
    }

    @Test("a chain of posts exactly as deep as the forwarding limit is delivered", arguments: [1, 4, 64])
    func chainAtTheLimitIsDelivered(limit: Int) async throws {
        let system = EventSystem(forwardingLimit: limit)
        let forwarder = PostForwarder(system: system, giveUpAfter: limit)

        let outcome = await forwarder.post(Order(id: 0)).outcome

        #expect(outcome.kind == .handled)
        #expect(await forwarder.forwards == limit)
        #expect(await forwarder.log.allFinished)
        #expect(system.outstandingPosts == 0)
    }

    @Test("a post made by middleware inside a hop carries the route's depth")
    func middlewarePostsCarryTheDepth() async throws {
        let reposter = Reposter(giveUpAfter: 20)
        let system = EventSystem(middleware: [reposter], forwardingLimit: 2)
        let sink = Sink(system: system)

        let outcome = await sink.post(Order(id: 0)).outcome

        let rejection = try #require(outcome.rejectedDetails)
        #expect(rejection.reason == .forwardingLimitReached(limit: 2))
        #expect(reposter.forwards == 3)
        #expect(system.outstandingPosts == 0)
    }

    @Test("posts made outside any route start at depth 0, from the caller's task or any other")
    func postsOutsideAnyRouteAreUnaffected() async throws {
        let system = EventSystem(forwardingLimit: 1)
        // Each post forwards once: depth 0, then 1, the limit.
        let fromHere = PostForwarder(system: system, giveUpAfter: 1)
        let fromATask = PostForwarder(system: system, giveUpAfter: 1)

        let here = await fromHere.post(Order(id: 0)).outcome
        let there = await Task.detached { await fromATask.post(Order(id: 0)).outcome }.value

        #expect(here.kind == .handled)
        #expect(there.kind == .handled)
        #expect(await fromHere.forwards == 1)
        #expect(await fromATask.forwards == 1)
    }

    @Test("a post made by a task a handler started, while its route is under way, carries the route's depth")
    func taskPostsCarryTheDepth() async throws {
        let system = EventSystem(forwardingLimit: 2)
        let forwarder = PostForwarder(system: system, giveUpAfter: 20, postsFromATask: true)

        let outcome = await forwarder.post(Order(id: 0)).outcome

        let rejection = try #require(outcome.rejectedDetails)
        #expect(rejection.reason == .forwardingLimitReached(limit: 2))
        #expect(await forwarder.forwards == 3)
        #expect(await forwarder.log.allFinished)
        #expect(system.outstandingPosts == 0)
    }

    @Test("a post made by a task a handler started, once its route has ended, starts at depth 0")
    func taskPostsAfterTheRouteStartAfresh() async throws {
        let system = EventSystem(forwardingLimit: 1)
        let starter = LateTaskStarter(system: system)

        let outcome = await starter.post(Order(id: 0)).outcome
        #expect(outcome.kind == .handled)
        starter.release.open()

        // Order 1 at depth 0 and order 2 at depth 1: within the limit.
        let later = try #require(await starter.startedTask?.value)
        #expect(later.kind == .handled, "\(later)")
        #expect(system.outstandingPosts == 0)
    }
}
