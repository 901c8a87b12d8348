import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Typed and named events")
    struct NamedEventTests {
        @Test("a typed event reaches the handler registered for its type, already typed")
        func typedEvent() async throws {
            let cart = Cart()

            let outcome = await cart.send(ItemAdded(sku: "A-1"))

            #expect(outcome.kind == .handled)
            #expect(await cart.items == ["typed:A-1"])
        }

        @Test("a named event reaches the handler registered for its name, with its payload")
        func namedEvent() async throws {
            let leaf = Station(named: "leaf")
            let cart = Cart()
            await leaf.link(to: cart)

            let byName = await leaf.send(.addToCart, payload: "B-2")
            let byValue = await leaf.send(NamedEvent(.addToCart, payload: "C-3"))

            #expect(try #require(byName.handledDetails).stoppedAt == ResponderID(cart))
            #expect(byValue.kind == .handled)
            #expect(await cart.items == ["named:B-2", "named:C-3"])
        }

        @Test("a named event with no payload uses the empty payload")
        func namedEventWithoutPayload() async throws {
            let cart = Cart()
            await cart.send(.addToCart, payload: "A-1")

            let outcome = await cart.send(.clearCart)

            #expect(outcome.kind == .handled)
            #expect(await cart.items.isEmpty)
        }

        @Test("a named event is traced by its name, a typed event by its type")
        func traceNames() {
            #expect(NamedEvent(.addToCart, payload: "A").traceName == "addToCart")
            #expect(ItemAdded(sku: "A").traceName == "ItemAdded")
        }

        @Test("a named event that shares a typed event's name does not reach the typed handler")
        func namesAndTypesAreSeparate() async throws {
            let root = RootSink(.pass)
            let cart = Cart(parent: root)

            let outcome = await cart.send(NamedEvent("ItemAdded", payload: ItemAdded(sku: "A-1")))

            #expect(outcome.kind == .unhandled)
            #expect(await cart.items.isEmpty)
            #expect(await root.seen == ["ItemAdded"])
        }

        @Test(
            "a named event whose payload has another type fails with a mismatch naming both types and the hop"
        )
        func payloadMismatch() async throws {
            let leaf = Station(named: "leaf")
            let cart = Cart()
            await leaf.link(to: cart)

            let outcome = await leaf.send(.addToCart, payload: 42)

            let failure = try #require(outcome.failedDetails)
            #expect(failure.responder == ResponderID(cart))
            #expect(failure.hop == 2)
            let mismatch = try #require(outcome.failedError(as: ResponderChainError.self))
            #expect(mismatch.code == .payloadTypeMismatch)
            #expect(
                mismatch.description
                    == "named event 'addToCart' carried a payload of type Int, but its handler expects String"
            )
            #expect(await cart.items.isEmpty)
        }
    }
}
