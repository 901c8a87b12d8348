import ResponderChain
import Testing

/// One observation stream's buffer and waiting consumers as a pure state machine, driven step by
/// step: no task runs, no continuation is resumed, every transition's answer is checked.
/// Consumers are plain names here, since the machine only stores and returns them.
@Suite("Observation state machine")
struct ObservationStateMachineTests {
    typealias Machine = ObservationStateMachine<Int, String>

    @Test("with no consumer waiting, elements are kept and read oldest first")
    func keepsAndReadsInOrder() {
        var machine = Machine(buffering: .keepingOldest(10))
        for element in 1...3 { #expect(machine.receive(element).resumed == nil) }
        #expect(machine.unreadCount == 3)
        #expect(machine.next().returned == .some(1))
        #expect(machine.next().returned == .some(2))
        #expect(machine.next().returned == .some(3))
        #expect(machine.next().suspendedAs != nil)
        #expect(machine.droppedCount == 0)
    }

    @Test(
        "a full buffer drops by its policy and counts each drop",
        arguments: [
            (ObservationStream<Int>.Buffering.keepingNewest(2), [2, 3]),
            (ObservationStream<Int>.Buffering.keepingOldest(2), [1, 2]),
        ])
    func fullBufferDrops(buffering: ObservationStream<Int>.Buffering, kept: [Int]) {
        var machine = Machine(buffering: buffering)
        for element in 1...3 { #expect(machine.receive(element).resumed == nil) }
        #expect(machine.droppedCount == 1)
        #expect(machine.unreadCount == 2)
        #expect([machine.next().returned, machine.next().returned] == kept.map { Int??.some($0) })
        // Once read, the buffer has room again.
        _ = machine.receive(4)
        #expect(machine.next().returned == .some(4))
        #expect(machine.droppedCount == 1)
    }

    @Test("a consumer with nothing to read waits, and the next element goes to it, not to the buffer")
    func waitingConsumerTakesTheNextElement() throws {
        var machine = Machine(buffering: .default)
        let id = try #require(machine.next().suspendedAs)
        #expect(machine.suspend(id, "reader", isCancelled: false).isSuspended)
        #expect(machine.waitingCount == 1)

        #expect(machine.receive(7).resumed == "reader")
        #expect(machine.waitingCount == 0)
        #expect(machine.unreadCount == 0)
        // With nobody waiting any more, the next element is kept.
        #expect(machine.receive(8).resumed == nil)
        #expect(machine.unreadCount == 1)
    }

    @Test("waiting consumers are served first come, first served, one element each")
    func consumersInArrivalOrder() throws {
        var machine = Machine(buffering: .default)
        let first = try #require(machine.next().suspendedAs)
        let second = try #require(machine.next().suspendedAs)
        #expect(first != second)
        #expect(machine.suspend(first, "first", isCancelled: false).isSuspended)
        #expect(machine.suspend(second, "second", isCancelled: false).isSuspended)
        // A consumer asking while others wait waits behind them.
        let third = try #require(machine.next().suspendedAs)
        #expect(machine.suspend(third, "third", isCancelled: false).isSuspended)

        #expect(machine.receive(1).resumed == "first")
        #expect(machine.receive(2).resumed == "second")
        #expect(machine.receive(3).resumed == "third")
        #expect(machine.waitingCount == 0)
    }

    @Test("an element that arrives between asking and suspending is handed over at once")
    func elementBeforeSuspending() throws {
        var machine = Machine(buffering: .default)
        let id = try #require(machine.next().suspendedAs)
        #expect(machine.receive(5).resumed == nil)
        #expect(machine.suspend(id, "reader", isCancelled: false).resumedWith == .some(5))
        #expect(machine.waitingCount == 0)
        #expect(machine.unreadCount == 0)
    }

    @Test("a waiting consumer that is cancelled leaves the line and is resumed; later elements are kept")
    func cancelWhileWaiting() throws {
        var machine = Machine(buffering: .default)
        let first = try #require(machine.next().suspendedAs)
        let second = try #require(machine.next().suspendedAs)
        _ = machine.suspend(first, "first", isCancelled: false)
        _ = machine.suspend(second, "second", isCancelled: false)

        #expect(machine.cancel(first).resumed == "first")
        #expect(machine.cancel(first).resumed == nil)
        #expect(machine.receive(1).resumed == "second")
        #expect(machine.cancel(second).resumed == nil)
        #expect(machine.receive(2).resumed == nil)
        #expect(machine.unreadCount == 1)
    }

    @Test("a consumer cancelled before it suspends is resumed with nil at once and never waits")
    func cancelBeforeSuspending() throws {
        var machine = Machine(buffering: .default)
        let id = try #require(machine.next().suspendedAs)
        #expect(machine.cancel(id).resumed == nil)
        #expect(machine.suspend(id, "reader", isCancelled: true).resumedWith == .some(nil))
        #expect(machine.waitingCount == 0)
        #expect(machine.receive(1).resumed == nil)
        #expect(machine.unreadCount == 1)
    }

    @Test("finishing resumes every waiting consumer with nil and ignores later elements")
    func finishResumesWaiters() throws {
        var machine = Machine(buffering: .default)
        for name in ["first", "second"] {
            let id = try #require(machine.next().suspendedAs)
            _ = machine.suspend(id, name, isCancelled: false)
        }
        #expect(machine.finish().resuming == ["first", "second"])
        #expect(machine.isFinished)
        #expect(machine.waitingCount == 0)
        #expect(machine.receive(1).resumed == nil)
        #expect(machine.unreadCount == 0)
        #expect(machine.next().returned == .some(nil))
    }

    @Test("a finished stream's unread elements are still read, then nil; finishing twice does nothing more")
    func finishKeepsUnread() {
        var machine = Machine(buffering: .default)
        _ = machine.receive(1)
        _ = machine.receive(2)
        #expect(machine.finish().resuming == [])
        #expect(machine.finish().resuming == nil)
        #expect(machine.next().returned == .some(1))
        #expect(machine.next().returned == .some(2))
        #expect(machine.next().returned == .some(nil))
        #expect(machine.next().returned == .some(nil))
    }

    @Test("a consumer that finds the stream finished by the time it suspends is resumed at once")
    func finishBeforeSuspending() throws {
        var machine = Machine(buffering: .default)
        let id = try #require(machine.next().suspendedAs)
        #expect(machine.finish().resuming == [])
        #expect(machine.suspend(id, "reader", isCancelled: false).resumedWith == .some(nil))
        #expect(machine.waitingCount == 0)
    }
}

extension ObservationStateMachine.ReceiveAction {
    /// The consumer to resume with the element, if any.
    fileprivate var resumed: Consumer? {
        if case .resume(let consumer) = self { consumer } else { nil }
    }
}

extension ObservationStateMachine.NextAction {
    /// What to return at once (`.some(nil)`: the end), or `nil` to suspend.
    fileprivate var returned: Element?? {
        if case .return(let element) = self { .some(element) } else { nil }
    }

    /// The identity to suspend under, if the consumer must wait.
    fileprivate var suspendedAs: ObservationStateMachine<Element, Consumer>.ConsumerID? {
        if case .suspend(let id) = self { id } else { nil }
    }
}

extension ObservationStateMachine.SuspendAction {
    /// Whether the consumer is waiting.
    fileprivate var isSuspended: Bool {
        if case .suspended = self { true } else { false }
    }

    /// What to resume the consumer with at once (`.some(nil)`: the end), or `nil` if it waits.
    fileprivate var resumedWith: Element?? {
        if case .resume(let element) = self { .some(element) } else { nil }
    }
}

extension ObservationStateMachine.CancelAction {
    /// The consumer to resume with `nil`, if it was waiting.
    fileprivate var resumed: Consumer? {
        if case .resume(let consumer) = self { consumer } else { nil }
    }
}

extension ObservationStateMachine.FinishAction {
    /// The consumers to resume with `nil`, or `nil` when the stream had finished already.
    fileprivate var resuming: [Consumer]? {
        if case .finished(let consumers) = self { consumers } else { nil }
    }
}
