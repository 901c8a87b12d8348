import ResponderChain
import ResponderUI
import Testing

/// A stand-in for a view: the machine only stores targets and compares them by identity.
private final class Node: CustomStringConvertible {
    let label: String
    init(_ label: String) { self.label = label }
    var description: String { label }
}

private typealias Machine = PointerSequenceStateMachine<Node>

private let one = PointerID(1)
private let two = PointerID(2)
private let three = PointerID(3)
private let origin = Point(x: 0, y: 0)

/// Identities of signals, to compare the signals an action withdraws.
private func ids(_ signals: [CancellationSignal]) -> Set<ObjectIdentifier> {
    Set(signals.map(ObjectIdentifier.init))
}

/// The send of `action`, or `nil` when it is `.none`.
private func send(of action: Machine.InputAction) -> Machine.Send? {
    guard case .send(let send) = action else { return nil }
    return send
}

/// A take-over that must fail.
struct RefusedTakeOver: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether the pointer has a sequence.
    let tracking: Bool
    /// Whether the taker is the bound view.
    let takerIsBound: Bool
    /// What `encloses` answers.
    let encloses: Bool
    let error: PointerTakeOverError

    var testDescription: String { name }

    static let table: [RefusedTakeOver] = [
        RefusedTakeOver(
            name: "an idle pointer", tracking: false, takerIsBound: false, encloses: true, error: .noSequence),
        RefusedTakeOver(
            name: "the bound view itself", tracking: true, takerIsBound: true, encloses: false,
            error: .alreadyBound),
        RefusedTakeOver(
            name: "a view that does not enclose the bound view", tracking: true, takerIsBound: false,
            encloses: false, error: .notAnAncestor),
    ]
}

/// The window's pointer bookkeeping on its own: each transition's action and the state it leaves,
/// with no views, no chain and no I/O.
@Suite("The pointer-sequence state machine")
struct PointerSequenceStateMachineTests {
    @Test("began binds the sequence and sends the began with a signal of its own, withdrawing nothing")
    func began() throws {
        var machine = Machine()
        let button = Node("button")

        let action = machine.began(one, on: button, at: Point(x: 5, y: 5))

        #expect(action.replaced.tell.isEmpty && action.replaced.withdrawing.isEmpty)
        let send = try #require(action.send)
        #expect(send.target === button)
        #expect(send.withdrawing.isEmpty)
        let underWay = try #require(send.underWay)
        #expect(underWay.token.pointer == one)
        #expect(!underWay.signal.isCancelled)
        #expect(machine.activePointers == [one])
        #expect(machine.boundTarget(for: one) === button)
        #expect(machine.eventsUnderWay(for: one) == 1)
    }

    @Test(
        "a later phase of an idle pointer does nothing", arguments: [PointerPhase.moved, .ended, .cancelled])
    func idlePointer(_ phase: PointerPhase) {
        var machine = Machine()
        let action = phase == .moved ? machine.moved(one, to: origin) : machine.ended(one)
        #expect(send(of: action) == nil)
        #expect(machine.activePointers.isEmpty)
    }

    @Test("each moved withdraws the sends of its sequence still under way, and only those")
    func movedSupersedes() throws {
        var machine = Machine()
        let button = Node("button")
        let began = try #require(machine.began(one, on: button, at: origin).send?.underWay)
        let other = try #require(machine.began(two, on: Node("other"), at: origin).send?.underWay)

        let first = try #require(send(of: machine.moved(one, to: Point(x: 1, y: 0))))
        #expect(first.target === button)
        #expect(ids(first.withdrawing) == ids([began.signal]))
        let firstUnderWay = try #require(first.underWay)

        // The first move returned: the next one has nothing to withdraw.
        machine.sendReturned(firstUnderWay.token)
        let second = try #require(send(of: machine.moved(one, to: Point(x: 2, y: 0))))
        #expect(second.withdrawing.isEmpty)
        #expect(machine.eventsUnderWay(for: one) == 1)
        #expect(machine.eventsUnderWay(for: two) == 1)
        #expect(!other.signal.isCancelled)
    }

    @Test(
        "ended or an input cancelled ends the sequence before it is sent, withdrawing every send under way; the end is never withdrawn",
        arguments: [PointerPhase.ended, .cancelled])
    func ending(_ phase: PointerPhase) throws {
        var machine = Machine()
        let button = Node("button")
        let began = try #require(machine.began(one, on: button, at: origin).send?.underWay)
        let moving = try #require(send(of: machine.moved(one, to: origin)))
        let moved = try #require(moving.underWay)
        let other = try #require(machine.began(two, on: Node("other"), at: origin).send?.underWay)

        let end = try #require(send(of: machine.ended(one)))

        #expect(end.target === button)
        // The began was the moved's to withdraw; the moved is the end's. Pointer 2's is no one's.
        #expect(ids(moving.withdrawing) == ids([began.signal]))
        #expect(ids(end.withdrawing) == ids([moved.signal]))
        #expect(machine.eventsUnderWay(for: two) == 1)
        #expect(!ids(end.withdrawing).contains(ObjectIdentifier(other.signal)))
        #expect(end.underWay == nil)
        #expect(machine.activePointers == [two])
        // Ended once: a second end finds no sequence.
        #expect(send(of: machine.ended(one)) == nil)
    }

    @Test(
        "a send that returns after its sequence ended touches nothing, not even a new sequence of its pointer"
    )
    func lateReturn() throws {
        var machine = Machine()
        let old = try #require(machine.began(one, on: Node("old"), at: origin).send?.underWay)
        _ = machine.ended(one)
        let fresh = try #require(machine.began(one, on: Node("new"), at: origin).send?.underWay)

        machine.sendReturned(old.token)

        #expect(machine.eventsUnderWay(for: one) == 1)
        let moved = try #require(send(of: machine.moved(one, to: origin)))
        #expect(ids(moved.withdrawing) == ids([fresh.signal]))
    }

    @Test("a began on a pointer still tracking replaces its sequence: the old view is told, system")
    func beganAgain() throws {
        var machine = Machine()
        let old = Node("old")
        let parked = try #require(machine.began(one, on: old, at: Point(x: 3, y: 4)).send?.underWay)
        let new = Node("new")

        let action = machine.began(one, on: new, at: origin)

        #expect(ids(action.replaced.withdrawing) == ids([parked.signal]))
        let told = try #require(action.replaced.tell.first)
        #expect(action.replaced.tell.count == 1)
        #expect(told.target === old && told.pointer == one && told.location == Point(x: 3, y: 4))
        #expect(told.kind == .ended(.system))
        #expect(machine.boundTarget(for: one) === new)
    }

    @Test("a take-over that cannot be done fails and changes nothing", arguments: RefusedTakeOver.table)
    func refusedTakeOver(_ refused: RefusedTakeOver) throws {
        var machine = Machine()
        let button = Node("button")
        var underWay: Machine.UnderWay?
        if refused.tracking { underWay = machine.began(one, on: button, at: origin).send?.underWay }
        let taker = refused.takerIsBound ? button : Node("taker")

        let result = machine.takeOver(one, by: taker) { _ in refused.encloses }

        #expect(throws: refused.error) { try result.get() }
        #expect(machine.boundTarget(for: one) === (refused.tracking ? button : nil))
        #expect(machine.eventsUnderWay(for: one) == (refused.tracking ? 1 : 0))
        #expect(underWay?.signal.isCancelled != true)
    }

    @Test(
        "a take-over re-binds the sequence before anyone is told, withdraws its sends, and tells the old view below the taker"
    )
    func takeOver() throws {
        var machine = Machine()
        let (button, scroll, outer) = (Node("button"), Node("scroll"), Node("outer"))
        _ = machine.began(one, on: button, at: Point(x: 1, y: 1))
        _ = machine.moved(one, to: Point(x: 2, y: 2))
        let moving = try #require(send(of: machine.moved(one, to: Point(x: 7, y: 7)))?.underWay)
        var asked: [String] = []

        let action = try machine.takeOver(one, by: scroll) { bound in
            asked.append(bound.label)
            return true
        }.get()

        #expect(asked == ["button"])
        #expect(ids(action.withdrawing) == ids([moving.signal]))
        let told = try #require(action.tell.first)
        #expect(action.tell.count == 1)
        #expect(told.target === button && told.location == Point(x: 7, y: 7))
        #expect(told.kind == .takenOver(by: scroll))
        #expect(told.kind.reason == .takenOver)
        // The sequence goes on, bound to the taker, with nothing under way.
        #expect(machine.boundTarget(for: one) === scroll)
        #expect(machine.eventsUnderWay(for: one) == 0)
        #expect(send(of: machine.moved(one, to: origin))?.target === scroll)

        // A further ancestor takes it from the taker: the taker is told, the old view is not.
        let again = try machine.takeOver(one, by: outer) { _ in true }.get()
        #expect(again.tell.map(\.target.label) == ["scroll"])
        #expect(again.tell.first?.kind == .takenOver(by: outer))
        #expect(send(of: machine.ended(one))?.target === outer)
    }

    @Test(
        "a cancellation ends the sequences it selects before anyone is told, in pointer-id order, withdrawing their sends; the others go on",
        arguments: [PointerCancellation.system, .viewLeftWindow, .windowDetached])
    func cancel(_ reason: PointerCancellation) throws {
        var machine = Machine()
        let (a, b, c) = (Node("a"), Node("b"), Node("c"))
        let third = try #require(machine.began(three, on: c, at: origin).send?.underWay)
        let first = try #require(machine.began(one, on: a, at: origin).send?.underWay)
        let second = try #require(machine.began(two, on: b, at: origin).send?.underWay)

        let action = machine.cancel(reason: reason) { _, bound in bound !== b }

        #expect(action.tell.map(\.pointer) == [one, three])
        #expect(action.tell.map(\.target.label) == ["a", "c"])
        #expect(action.tell.allSatisfy { $0.kind == .ended(reason) && $0.kind.reason == reason })
        #expect(ids(action.withdrawing) == ids([first.signal, third.signal]))
        #expect(machine.activePointers == [two])
        #expect(!second.signal.isCancelled)
        // Re-entered while the window tells them (a told view detaches the window): only the
        // sequence nobody has ended yet is found.
        let nested = machine.cancel(reason: .windowDetached) { _, _ in true }
        #expect(nested.tell.map(\.pointer) == [two])
        #expect(machine.cancel(reason: .windowDetached) { _, _ in true }.tell.isEmpty)
    }

    @Test("the state machine never withdraws a signal itself: the window does, from the action")
    func signalsAreLeftToTheWindow() throws {
        var machine = Machine()
        let began = try #require(machine.began(one, on: Node("a"), at: origin).send?.underWay)
        let action = machine.cancel(reason: .system) { _, _ in true }
        #expect(ids(action.withdrawing) == ids([began.signal]))
        #expect(!began.signal.isCancelled)
    }

    // MARK: Held and claimed sequences (gesture recognizers)

    @Test("a held sequence sends nothing; its release sends what it held, in order, and makes it live")
    func heldThenReleased() throws {
        var machine = Machine()
        let row = Node("row")
        #expect(machine.began(one, on: row, at: origin, start: .held).send == nil)
        #expect(send(of: machine.moved(one, to: Point(x: 1, y: 0))) == nil)
        #expect(send(of: machine.moved(one, to: Point(x: 2, y: 0))) == nil)
        #expect(machine.heldPointers == [one])

        let released = machine.release(one)

        #expect(released.map(\.held.phase) == [.began, .moved, .moved])
        #expect(released.map(\.held.location.x) == [0, 1, 2])
        #expect(released.allSatisfy { $0.send.target === row && $0.send.underWay != nil })
        #expect(machine.heldPointers.isEmpty)
        #expect(machine.eventsUnderWay(for: one) == 3)
        #expect(machine.release(one).isEmpty)
        let moved = try #require(send(of: machine.moved(one, to: Point(x: 3, y: 0))))
        #expect(moved.withdrawing.count == 3)
    }

    @Test(
        "a claim of a live sequence withdraws its sends, tells its view once with the reason, and re-binds it"
    )
    func claimOfALiveSequence() throws {
        var machine = Machine()
        let (button, list) = (Node("button"), Node("list"))
        let began = try #require(machine.began(one, on: button, at: origin).send?.underWay)

        let action = machine.claim(one, for: list, reason: .gestureRecognized(by: "pan"))

        #expect(ids(action.withdrawing) == ids([began.signal]))
        #expect(action.tell.map(\.target.label) == ["button"])
        #expect(action.tell.first?.kind == .ended(.gestureRecognized(by: "pan")))
        #expect(action.ended.isEmpty)
        #expect(machine.boundTarget(for: one) === list)
        // Claimed: the views get nothing more, the end included, and nobody is told twice.
        #expect(send(of: machine.moved(one, to: origin)) == nil)
        #expect(machine.claim(one, for: list, reason: .gestureRecognized(by: "press")).tell.isEmpty)
        let refused = machine.takeOver(one, by: Node("window")) { _ in true }
        #expect(throws: PointerTakeOverError.claimedByGesture) { try refused.get() }
        #expect(send(of: machine.ended(one)) == nil)
        #expect(machine.activePointers.isEmpty)
    }

    @Test(
        "a held sequence claimed or cancelled tells no view, which never heard of it; a cancellation still reports it ended"
    )
    func heldSequencesTellNobody() {
        var machine = Machine()
        _ = machine.began(one, on: Node("row"), at: origin, start: .held)
        _ = machine.began(two, on: Node("row"), at: origin, start: .held)
        let claimed = machine.claim(one, for: Node("list"), reason: .gestureRecognized(by: "pan"))
        #expect(claimed.tell.isEmpty && claimed.withdrawing.isEmpty)
        #expect(machine.release(one).isEmpty)

        let cancelled = machine.cancel(reason: .windowDetached) { _, _ in true }

        #expect(cancelled.tell.isEmpty)
        #expect(cancelled.ended.map(\.pointer) == [one, two])
        #expect(cancelled.ended.allSatisfy { $0.reason == .windowDetached })
    }
}
