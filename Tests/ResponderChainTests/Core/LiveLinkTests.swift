import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Live links", .timeLimit(.minutes(1)))
    struct LiveLinkTests {
        /// Which responder a test re-links while the leaf's handler is parked.
        enum Relinked: String, CaseIterable, Sendable {
            /// The leaf itself: the change takes effect at the next hop.
            case parkedResponder
            /// The responder above it: the change is followed when the event gets there.
            case responderAbove
        }

        @Test(
            "a re-link made while a handler is parked, of that responder or of one higher up, is followed when the event gets there",
            arguments: Relinked.allCases)
        func relinkWhileParked(_ relinked: Relinked) async throws {
            let gate = Gate()
            let oldRoot = Station(named: "oldRoot", .handle, root: true)
            let newRoot = Station(named: "newRoot", .handle, root: true)
            let mid = Station(named: "mid", .pass, parent: oldRoot)
            let leaf = Station(named: "leaf", .park(gate, then: .pass), parent: mid)

            let sending = Task { await leaf.send(Ping()) }
            try await gate.waitForArrivals(1)
            await (relinked == .parkedResponder ? leaf : mid).link(to: newRoot)
            gate.open()
            let outcome = await sending.value

            let handled = try #require(outcome.handledDetails)
            #expect(handled.stoppedAt == ResponderID(newRoot))
            #expect(handled.hops == (relinked == .parkedResponder ? 2 : 3))
            #expect(await mid.sightings.count == (relinked == .parkedResponder ? 0 : 1))
            #expect(await oldRoot.sightings.isEmpty)
        }

        @Test("unlinking while a handler is parked interrupts the event at that responder")
        func unlinkWhileParked() async throws {
            let gate = Gate()
            let root = Station(named: "root", .handle, root: true)
            let leaf = Station(named: "leaf", .park(gate, then: .pass), parent: root)

            let sending = Task { await leaf.send(Ping()) }
            try await gate.waitForArrivals(1)
            await leaf.link(to: nil)
            gate.open()
            let outcome = await sending.value

            #expect(outcome.interruptedDetails?.lastReached == ResponderID(leaf))
            #expect(await root.sightings.isEmpty)
        }

        @Test(
            "a responder linked in mid-flight is visited even if it took the memory of one the event already left"
        )
        func newResponderAtAReusedAddress() async throws {
            let gate = Gate()
            let top = Station(named: "top", .park(gate, then: .pass))
            let middle = Station(named: "middle", .pass, parent: top)
            var passed: Station? = Station(named: "passed", .pass, parent: middle)
            let sender = Station(named: "sender", .pass, parent: passed)

            let sending = Task { await sender.send(Ping()) }
            try await gate.waitForArrivals(1)
            await sender.link(to: nil)
            // Release the responder the event has already left, and make a new one at once: the
            // allocator usually hands it the same memory, so it has the same ObjectIdentifier.
            passed = nil
            let newcomer = Station(named: "newcomer", .handle, root: true)
            await top.link(to: newcomer)
            gate.open()
            let outcome = await sending.value

            // The system keeps the responders it visited alive until the send ends, so a newcomer
            // can never be mistaken for one of them.
            #expect(outcome.handledDetails?.stoppedAt == ResponderID(newcomer))
            #expect(outcome.hops == 5)
        }
    }
}
