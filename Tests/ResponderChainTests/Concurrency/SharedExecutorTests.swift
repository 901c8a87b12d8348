@testable import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

@Suite("Shared executors")
struct SharedExecutorTests {
    struct Tick: Event {}

    /// How many handlers passed the executor check.
    final class Checks: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// A responder that runs on a shared executor and checks, in its handler, that it does.
    actor Member: Responder {
        let executor: SharedExecutor
        let parent: Member?
        let checks: Checks
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

        init(_ executor: SharedExecutor, parent: Member?, checks: Checks) {
            self.executor = executor
            self.parent = parent
            self.checks = checks
        }

        var next: (any Responder)? { parent }
        nonisolated var isRoot: Bool { parent == nil }

        static let strategies = Strategies<Member> {
            $0.on(Tick.self) { member, _, _ in
                // Traps unless this handler runs on the group's executor.
                member.executor.preconditionIsolated("a member's handler ran off the shared executor")
                member.checks.add()
                return member.parent == nil ? .handled : .pass
            }
        }
    }

    /// A chain of `count` members on `group`, leaf first, with the checks their handlers count.
    private func members(_ count: Int, on group: SharedExecutor = SharedExecutor()) -> (
        group: SharedExecutor, chain: [Member], checks: Checks
    ) {
        let checks = Checks()
        var chain: [Member] = []
        var parent: Member?
        for _ in 0..<count {
            let member = Member(group, parent: parent, checks: checks)
            chain.insert(member, at: 0)
            parent = member
        }
        return (group, chain, checks)
    }

    @Test("a send made inside the group runs every member's handler on the group's executor")
    func sendInsideTheGroup() async {
        let (group, chain, checks) = members(8, on: SharedExecutor(label: "window"))
        let leaf = chain[0]
        let outcome = await group.run { group in
            let outcome = await leaf.send(Tick())
            group.preconditionIsolated()  // still on the executor after all hops: nothing left it
            return outcome
        }
        #expect(outcome.kind == .handled)
        #expect(outcome.hops == 8)
        #expect(checks.value == 8)
    }

    @Test("a send from outside the group enters it, and every member's handler still runs on it")
    func sendFromOutside() async {
        let (_, chain, checks) = members(5)
        #expect(await chain[0].send(Tick()).kind == .handled)
        #expect(checks.value == 5)
    }

    @Test("events posted from inside the group are delivered on its executor, in post order")
    func postsInsideTheGroup() async {
        let (group, chain, checks) = members(4)
        let leaf = chain[0]
        let tickets = await group.run { _ in
            var tickets: [Ticket] = []
            for _ in 0..<100 { tickets.append(await leaf.post(Tick())) }
            return tickets
        }
        for ticket in tickets { #expect(await ticket.outcome.kind == .handled) }
        #expect(checks.value == 400)
    }
}
