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
