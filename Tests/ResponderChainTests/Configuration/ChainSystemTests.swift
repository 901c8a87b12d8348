import ResponderChain
import ResponderChainTesting
import Testing

/// A chain that names its event system once, in a protocol its responder types share.
private enum Checkout {
    static let letters = DeadLetterRecorder()
    static let tracer = RecordingTracer()
    static let system = EventSystem(tracer: tracer, deadLetters: letters.sink)
}

private protocol CheckoutResponder: Responder {}

extension CheckoutResponder {
    nonisolated var eventSystem: EventSystem { Checkout.system }
}

private struct Abandoned: Event {}

private actor Basket: CheckoutResponder {
    let session: Session
    init(session: Session) { self.session = session }
    var next: (any Responder)? { session }
}

/// Ends the chain without a root: events nobody handles end interrupted.
private actor Session: CheckoutResponder {
    var next: (any Responder)? { nil }
}

/// A responder that names no system.
private actor Loose: Responder {
    var next: (any Responder)? { nil }
}

@Suite("Event systems per chain", .serialized)
struct ChainSystemTests {
    @Test("every responder of a chain whose types share a protocol sends through that protocol's system")
    func protocolNamesTheSystem() async throws {
        let session = Session()
        let basket = Basket(session: session)
        let before = Checkout.letters.count

        let fromBasket = await basket.send(Abandoned())
        let fromSession = await session.send(Abandoned())

        #expect(fromBasket.kind == .interrupted && fromSession.kind == .interrupted)
        #expect(Checkout.letters.count == before + 2)
        let traced = Set(Checkout.tracer.eventIDs)
        #expect(traced.isSuperset(of: [fromBasket.eventID, fromSession.eventID]))
        // Read through the requirement, as a send does (the witness itself is synchronous).
        let responder: any Responder = basket
        #expect(await responder.eventSystem === Checkout.system)
    }

    @Test("a responder that names no system uses the process-wide default")
    func unnamedUsesTheDefault() async {
        let responder: any Responder = Loose()
        #expect(await responder.eventSystem === EventSystem.default)
    }

    @Test("a post goes through the sender's system: its queues and its dead-letter sink")
    func postsUseTheSendersSystem() async throws {
        let basket = Basket(session: Session())
        let before = Checkout.letters.count

        let ticket = await basket.post(Abandoned())

        #expect(await ticket.outcome.kind == .interrupted)
        #expect(Checkout.letters.count == before + 1)
        #expect(Checkout.system.outstandingPosts == 0)
        #expect(Checkout.system.peakOutstandingPosts >= 1)
    }

    @Test("a relay sends through its entry's system while the entry lives")
    func relayUsesTheEntrysSystem() async {
        let basket = Basket(session: Session())
        let relay = Relay(entry: basket, label: "Webhook")
        let before = Checkout.letters.count

        let outcome = await relay.send(Abandoned())

        #expect(outcome.kind == .interrupted)
        #expect(Checkout.letters.count == before + 1)
        #expect(Checkout.letters.letters.last?.source.description == "relay(Webhook)")
    }

    @Test("per-send options replace the system's tracer and dead-letter sink for that send only")
    func optionsOverrideOneSend() async {
        let basket = Basket(session: Session())
        let mine = DeadLetterRecorder()
        let before = Checkout.letters.count

        let outcome = await basket.send(Abandoned(), options: SendOptions(deadLetters: mine.sink))

        #expect(outcome.kind == .interrupted)
        #expect(mine.count == 1)
        #expect(Checkout.letters.count == before)
    }
}
