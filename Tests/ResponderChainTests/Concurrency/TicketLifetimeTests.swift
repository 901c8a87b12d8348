@testable import ResponderChain
import ResponderChainTesting
import Testing

/// A ticket names its post's office without keeping it: the office holds its posts and their
/// tickets while they are outstanding, never the other way round.
@Suite("Ticket lifetime", .timeLimit(.minutes(1)))
struct TicketLifetimeTests {
    struct Ping: Event {}

    actor Sender: Responder {
        let system: EventSystem
        init(system: EventSystem) { self.system = system }
        nonisolated var eventSystem: EventSystem { system }
        var next: (any Responder)? { nil }
    }

    @Test(
        "a ticket kept after its post has ended does not keep the post office alive; cancelling it then does nothing"
    )
    func ticketDoesNotKeepItsOffice() async throws {
        weak var office: PostOffice?
        let ticket: Ticket
        do {
            let system = EventSystem()
            office = system.postOffice
            ticket = await Sender(system: system).post(Ping())
            _ = await ticket.outcome
        }
        try await waitUntil("the post office is released", within: .seconds(10)) { office == nil }
        let outcome = try #require(ticket.finishedOutcome)
        ticket.cancel()
        #expect(!ticket.isCancelled)
        #expect(ticket.finishedOutcome?.eventID == outcome.eventID)
        if case .cancelled = ticket.finishedOutcome { Issue.record("a finished ticket was cancelled") }
    }
}
