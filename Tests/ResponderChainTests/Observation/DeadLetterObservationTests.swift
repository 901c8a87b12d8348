import ResponderChain
import ResponderChainTesting
import Testing

private typealias O = ObservationFixtures

@Suite("Observing dead letters", .timeLimit(.minutes(1)))
struct DeadLetterObservationTests {
    @Test(
        "only the outcomes that go to dead letters appear, whether or not a sink is installed",
        arguments: [false, true])
    func onlyDeadLetters(withSink: Bool) async throws {
        let recorder = DeadLetterRecorder()
        let system = EventSystem(deadLetters: withSink ? recorder.sink : nil)
        let deadLetters = system.observeDeadLetters()
        let sends = [
            makeChain([.handle], system: system),
            makeChain([.pass], system: system),
            makeChain([.fail], system: system),
            makeChain([.pass], topIsRoot: false, system: system),
        ]
        var sent: [Outcome] = []
        for chain in sends { sent.append(await chain[0].send(Ping())) }

        try #require(deadLetters._unreadCount == 2)
        let letters = await O.read(2, from: deadLetters)
        #expect(letters.map(\.outcome.kind) == [.unhandled, .interrupted])
        #expect(letters.map(\.outcome.eventID) == [sent[1].eventID, sent[3].eventID])
        #expect(recorder.outcomes.count == (withSink ? 2 : 0))
    }

    @Test("a send's own sink does not hide its dead letter from the system's streams")
    func ownSinkStillObserved() async {
        let own = DeadLetterRecorder()
        let system = EventSystem()
        let deadLetters = system.observeDeadLetters()
        let chain = makeChain([.pass], system: system)
        _ = await chain[0].send(Ping(), options: SendOptions(deadLetters: own.sink))
        #expect(own.outcomes.map(\.kind) == [.unhandled])
        #expect(deadLetters._unreadCount == 1)
    }

    @Test("a dead letter reaches the streams after the sink took it, and before the send returns")
    func afterTheSinkBeforeTheReturn() async {
        let seenBySink = Locked<[Int]>([])
        let holder = Locked<ObservationStream<DeadLetter>?>(nil)
        let system = EventSystem(
            deadLetters: DeadLetter.Sink { _ in
                let unread = holder.withLock { $0?._unreadCount ?? -1 }
                seenBySink.withLock { $0.append(unread) }
            })
        let deadLetters = system.observeDeadLetters()
        holder.withLock { $0 = deadLetters }
        let chain = makeChain([.pass], system: system)

        _ = await chain[0].send(Ping())
        #expect(seenBySink.withLock { $0 } == [0])
        #expect(deadLetters._unreadCount == 1)
        holder.withLock { $0 = nil }
    }
}
