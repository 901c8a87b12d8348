import ResponderChain
import ResponderChainGRPC
import Testing

@testable import ResponderChainGRPC

/// The choice of a backend for a sender (``GRPCMultiBackendTransport``): rendezvous hashing over
/// the backends' addresses, and the backoff of a backend found unreachable. Deterministic: the
/// hash is fixed, and the health table is given its instants.
@Suite("A sender's backend: rendezvous hashing and the backoff of an unreachable backend")
struct RendezvousTests {
    static let three = ["[ipv4]10.0.0.1:9000", "[ipv4]10.0.0.2:9000", "[ipv4]10.0.0.3:9000"]
    static let senders = (0..<3_000).map { RemoteSenderKey(value: UInt64($0) &* 0x1000_0000_0040) }

    @Test("a sender's ranking depends only on its key and the addresses, not on their order or on the call")
    func rankingIsStable() {
        for sender in Self.senders {
            let ranking = Rendezvous.ranking(of: Self.three, for: sender)
            #expect(Set(ranking) == Set(Self.three))
            #expect(Rendezvous.ranking(of: Self.three.reversed(), for: sender) == ranking)
            #expect(
                Rendezvous.ranking(of: [Self.three[1], Self.three[2], Self.three[0]], for: sender) == ranking)
        }
        // The same in every process: the hash is not seeded.
        #expect(Rendezvous.hash("") == Rendezvous.hash(""))
        #expect(Rendezvous.weight(of: Self.three[0], for: RemoteSenderKey(value: 7)) == 0x5993_27a5_d789_3b07)
    }

    @Test(
        "removing a backend moves only the senders whose first choice it was, each to its second; the others keep their ranking",
        arguments: 0..<3)
    func removalMovesOnlyItsSenders(removed: Int) {
        let left = Self.three.filter { $0 != Self.three[removed] }
        var moved = 0
        for sender in Self.senders {
            let before = Rendezvous.ranking(of: Self.three, for: sender)
            let after = Rendezvous.ranking(of: left, for: sender)
            #expect(after == before.filter { $0 != Self.three[removed] })
            if before[0] == Self.three[removed] {
                moved += 1
                #expect(after[0] == before[1])
            } else {
                #expect(after[0] == before[0])
            }
        }
        // About a third of the senders had it first.
        #expect((800...1_200).contains(moved), "\(moved) moved")
    }

    @Test("adding a backend takes senders only to it")
    func additionTakesSendersOnlyToIt() {
        let four = Self.three + ["[ipv4]10.0.0.4:9000"]
        var taken = 0
        for sender in Self.senders {
            let before = Rendezvous.ranking(of: Self.three, for: sender)[0]
            let after = Rendezvous.ranking(of: four, for: sender)[0]
            if after != before {
                #expect(after == four[3])
                taken += 1
            }
        }
        #expect((600...900).contains(taken), "\(taken) taken")
    }

    @Test("the senders spread evenly over the backends", arguments: [2, 3, 5])
    func sendersSpread(count: Int) {
        let backends = (0..<count).map { "[ipv4]127.0.0.1:\(50_000 + $0)" }
        var share: [String: Int] = [:]
        for sender in Self.senders {
            share[Rendezvous.ranking(of: backends, for: sender)[0], default: 0] += 1
        }
        let fair = Self.senders.count / count
        for backend in backends {
            #expect(abs((share[backend] ?? 0) - fair) < fair / 8, "\(share)")
        }
    }

    @Test(
        "one responder is one sender key, as long as it lives; two responders are two; a relay is keyed by its label"
    )
    func senderKeys() {
        let system = EventSystem()
        let one = Station("one", .pass, system: system)
        let two = Station("two", .pass, system: system)
        #expect(RemoteSenderKey(.responder(one)) == RemoteSenderKey(.responder(one)))
        #expect(RemoteSenderKey(.responder(one)) != RemoteSenderKey(.responder(two)))
        #expect(RemoteSenderKey(.relay(label: "monitor")) == RemoteSenderKey(.relay(label: "monitor")))
        #expect(RemoteSenderKey(.relay(label: "monitor")) != RemoteSenderKey(.relay(label: "scanner")))
    }

    @Test(
        "a backend found unreachable goes to the end of the order for its backoff, doubled at each unreachable call in a row up to the maximum; an answer brings it back at once"
    )
    func backoff() {
        var health = BackendHealth(initialBackoff: .seconds(1), maxBackoff: .seconds(5))
        let start = EventSystem.Instant(offset: .seconds(100))
        let (a, b, c) = (Self.three[0], Self.three[1], Self.three[2])
        #expect(health.attemptOrder([a, b, c], at: start) == [a, b, c])

        health.markUnreachable(a, at: start)
        #expect(health.attemptOrder([a, b, c], at: start) == [b, c, a])
        #expect(health.attemptOrder([a, b, c], at: start + .milliseconds(999)) == [b, c, a])
        #expect(health.attemptOrder([a, b, c], at: start + .seconds(1)) == [a, b, c])

        // Unreachable again when tried: 2 s, then 4 s, then the maximum, 5 s.
        var now = start + .seconds(1)
        for backoff in [2, 4, 5, 5] {
            health.markUnreachable(a, at: now)
            #expect(health.isDown(a, at: now + .seconds(backoff) - .milliseconds(1)))
            #expect(!health.isDown(a, at: now + .seconds(backoff)))
            now = now + .seconds(backoff)
        }
        #expect(health.failures(of: a) == 5)

        health.markUnreachable(a, at: now)
        health.markAnswered(a)
        #expect(!health.isDown(a, at: now))
        #expect(health.failures(of: a) == 0)
        health.markUnreachable(a, at: now)
        #expect(!health.isDown(a, at: now + .seconds(1)))  // from the first backoff again

        health.markUnreachable(b, at: now)
        health.markUnreachable(c, at: now)
        #expect(health.attemptOrder([a, b, c], at: now) == [a, b, c])  // all down: in ranking order
        health.keep(only: [a])
        #expect(health.failures(of: b) == 0)
        #expect(health.isDown(a, at: now))
    }
}
