// swift-format-ignore-file
// Docs/Guide.md's Swift block of "Posts that survive a crash", verbatim (checked by
// DocSnippetTests), and the suite that runs it.

import ResponderChain
import ResponderChainTesting
import Testing

// snippet: Docs/Guide.md 35
struct OrderPlaced: Event { let id: Int }

func placeOrder(at ordersDesk: some Responder, in system: EventSystem) async throws -> Ticket {
    try system.register(ordersDesk, as: "orders")     // stored posts name their entry
    try await system.recoverStoredPosts()             // what the last run left unfinished
    return await ordersDesk.post(OrderPlaced(id: 17), key: "order-17", idempotencyKey: "req-5f2c")
}
// end snippet

/// The Guide's section "Posts that survive a crash".
@Suite("Guide: posts that survive a crash")
struct GuideDurabilityTests {
    @Test("the block's post is stored, handled, and its outcome read back by identifier; its retry is not a second post")
    func theBlockStoresItsPost() async throws {
        let store = EventSystem.InMemoryPostStore()
        let system = EventSystem(storage: .store(store))
        let desk = ScriptedResponder("orders", .handle, root: true, system: system)
        let ticket = try await placeOrder(at: desk, in: system)
        #expect(await ticket.outcome.kind == .handled)
        let retry = try await placeOrder(at: desk, in: system)
        #expect(await retry.outcome.rejectedDetails?.reason.isDuplicate == true)
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(try await system.storedOutcome(of: ticket.eventID)?.kind == .handled)
        #expect(await desk.seen.count == 1)
    }
}

extension Outcome.Rejection.Reason {
    fileprivate var isDuplicate: Bool {
        if case .duplicate = self { return true }
        return false
    }
}

// snippet: Docs/Guide.md 36
func paymentsSystem(paymentsDesk: ResponderID) -> EventSystem {
    var policies = EventSystem.RetryPolicies(standard: .default)   // 10 attempts, 1 s doubling to 5 min
    policies[responder: paymentsDesk] = EventSystem.RetryPolicy(
        maximumAttempts: 5, retrying: [.failed], initialBackoff: .milliseconds(200))
    return EventSystem(retryPolicies: policies)
}
// end snippet

/// The Guide's section "When a post fails: trying again".
@Suite("Guide: when a post fails")
struct GuideRetryTests {
    @Test("the block's system tries a post that fails at the payments desk five times, on the real clock, then dead-letters it")
    func theBlockRetriesFiveTimes() async throws {
        let desk = ScriptedResponder("payments", .init(throwing: GuideRetryFailure()), root: true)
        let system = paymentsSystem(paymentsDesk: ResponderID(desk))
        let checkout = ScriptedResponder("checkout", parent: desk, system: system)
        let letters = system.observeDeadLetters()

        let ticket = await checkout.post(OrderPlaced(id: 1))
        let outcome = await ticket.outcome
        var iterator = letters.makeAsyncIterator()
        let letter = try #require(await iterator.next())

        #expect(outcome.kind == .failed && outcome.path.attempts == 5)
        #expect(letter.earlierAttempts.count == 4)
        // 200, 400, 800 and 1,600 ms, each ± 10 %, between the attempts.
        let waits = zip(letter.earlierAttempts.dropFirst(), letter.earlierAttempts).map { $0.endedAt - $1.endedAt }
        #expect(waits.count == 3 && waits.allSatisfy { $0 >= .milliseconds(180) })
        #expect(await desk.seen.count == 5)
    }
}

private struct GuideRetryFailure: Error {}
