import ResponderChain
import Testing

/// One observation stream's buffer and waiting consumers as a pure state machine, driven step by
/// step: no task runs, no continuation is resumed, every transition's answer is checked.
/// Consumers are plain names here, since the machine only stores and returns them.
@Suite("Observation state machine")
struct ObservationStateMachineTests {
    typealias Machine = ObservationStateMachine<Int, String>

    /// Puts a consumer named `name` in the machine's line, as a consumer that found nothing to
    /// read does; returns its identity.
    @discardableResult
    func wait(_ name: String, in machine: inout Machine) -> WaiterID? {
        guard case .mustWait(let id) = machine.next(),
            case .suspended = machine.suspendConsumer(id, continuation: name)
        else {
            Issue.record("\(name) could not wait")
            return nil
        }
        return id
    }

    @Test("with no consumer waiting, elements are kept and read oldest first; with none left, a reader waits")
    func keepsAndReadsInOrder() {
        var machine = Machine(buffering: .keepingOldest(10))
        for element in 1...3 { #expect(machine.receive(element) == nil) }
        #expect(machine.unreadCount == 3)
        #expect(machine.read() == .some(1))
        #expect(machine.read() == .some(2))
        #expect(machine.read() == .some(3))
        #expect(machine.read() == nil)
        #expect(machine.droppedCount == 0)
    }

    @Test(
        "a full buffer drops by its policy and counts each drop; once read, it has room again",
        arguments: [
            (ObservationStream<Int>.Buffering.keepingNewest(2), [2, 3]),
            (ObservationStream<Int>.Buffering.keepingOldest(2), [1, 2]),
        ])
    func fullBufferDrops(buffering: ObservationStream<Int>.Buffering, kept: [Int]) {
        var machine = Machine(buffering: buffering)
        for element in 1...3 { #expect(machine.receive(element) == nil) }
        #expect(machine.droppedCount == 1)
        #expect(machine.unreadCount == 2)
        #expect([machine.read(), machine.read()] == kept.map { Int??.some($0) })
        _ = machine.receive(4)
        #expect(machine.read() == .some(4))
        #expect(machine.droppedCount == 1)
    }

    @Test("the next element goes to a waiting consumer, not to the buffer, and the consumer leaves the line")
    func waitingConsumerTakesTheNextElement() {
        var machine = Machine(buffering: .default)
        wait("reader", in: &machine)
        #expect(machine.receive(7)?.continuation == "reader")
        #expect(machine.consumers.isEmpty)
        #expect(machine.unreadCount == 0)
        #expect(machine.droppedCount == 0)
        // With nobody waiting any more, the next element is kept.
        #expect(machine.receive(8) == nil)
        #expect(machine.unreadCount == 1)
    }

    @Test("waiting consumers are served first come, first served, one element each")
    func consumersInArrivalOrder() {
        var machine = Machine(buffering: .default)
        for name in ["first", "second", "third"] { wait(name, in: &machine) }
        #expect(machine.receive(1)?.continuation == "first")
        #expect(machine.receive(2)?.continuation == "second")
        #expect(machine.receive(3)?.continuation == "third")
        #expect(machine.consumers.isEmpty)
        #expect(machine.unreadCount == 0)
    }

    @Test("a cancelled consumer leaves the line: the next element goes to the one behind it")
    func cancelledConsumerLeaves() throws {
        var machine = Machine(buffering: .default)
        let id = try #require(wait("cancelled", in: &machine))
        wait("behind", in: &machine)
        #expect(machine.cancelConsumer(id) == "cancelled")
        #expect(machine.cancelConsumer(id) == nil)  // handed back once
        #expect(machine.receive(1)?.continuation == "behind")
    }

    @Test(
        "a consumer told to wait is answered at once if it was cancelled, or an element came, before it suspended"
    )
    func answeredBeforeSuspending() throws {
        var machine = Machine(buffering: .default)
        guard case .mustWait(let cancelledFirst) = machine.next(),
            case .mustWait(let overtaken) = machine.next()
        else {
            Issue.record("a reader of an empty stream was not told to wait")
            return
        }
        #expect(machine.cancelConsumer(cancelledFirst) == nil)  // not suspended yet: remembered
        #expect(machine.suspendConsumer(cancelledFirst, continuation: "cancelled") == .resume(nil))
        #expect(machine.receive(1) == nil)  // nobody waits: kept
        #expect(machine.suspendConsumer(overtaken, continuation: "overtaken") == .resume(1))
        #expect(machine.consumers.isEmpty)
        #expect(machine.unreadCount == 0)
    }

    @Test("finishing hands back every waiting consumer, to resume with nil, and ignores later elements")
    func finishResumesWaiters() {
        var machine = Machine(buffering: .default)
        wait("first", in: &machine)
        wait("second", in: &machine)
        #expect(machine.finish().resuming == ["first", "second"])
        #expect(machine.isFinished)
        #expect(machine.consumers.isEmpty)
        #expect(machine.receive(1) == nil)
        #expect(machine.unreadCount == 0)
        #expect(machine.read() == .some(nil))
    }

    @Test("a finished stream's unread elements are still read, then nil; finishing twice does nothing more")
    func finishKeepsUnread() {
        var machine = Machine(buffering: .default)
        _ = machine.receive(1)
        _ = machine.receive(2)
        #expect(machine.finish().resuming == [])
        #expect(machine.finish().resuming == nil)
        #expect(machine.read() == .some(1))
        #expect(machine.read() == .some(2))
        #expect(machine.read() == .some(nil))
        #expect(machine.read() == .some(nil))
    }
}

extension ObservationStateMachine.FinishAction {
    /// The consumers to resume with `nil`, or `nil` when the stream had finished already.
    fileprivate var resuming: [Consumer]? {
        if case .finished(let consumers) = self { consumers.map(\.continuation) } else { nil }
    }
}
