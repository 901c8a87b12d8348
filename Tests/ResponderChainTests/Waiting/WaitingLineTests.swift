import ResponderChain
import Testing

/// The waiting line as a pure state machine: its continuations are plain strings here, since the
/// line only stores and returns them.
@Suite("Waiting line")
struct WaitingLineTests {
    typealias Line = WaitingLine<Int, String>

    @Test("waiters leave the line in the order they suspended")
    func firstComeFirstServed() {
        var line = Line()
        for number in 0..<5 {
            let id = line.makeID()
            #expect(line.suspend(id, element: number, continuation: "c\(number)") == .suspended)
        }
        var order: [String] = []
        while let waiter = line.popFirst() { order.append(waiter.continuation) }
        #expect(order == ["c0", "c1", "c2", "c3", "c4"])
        #expect(line.isEmpty)
        #expect(line.issuedCount == 0)
    }

    @Test("a waiter cancelled before it suspends is answered at once and never enters the line")
    func cancelledBeforeSuspending() {
        var line = Line()
        let id = line.makeID()
        #expect(line.cancel(id).name == "markedBeforeSuspending")
        #expect(line.isCancelledBeforeSuspending(id))
        #expect(line.suspend(id, element: 1, continuation: "late") == .cancelledBeforeSuspending)
        #expect(line.isEmpty)
        #expect(line.issuedCount == 0)
    }

    @Test("a suspended waiter that is cancelled is removed and handed back; the others keep their order")
    func cancelledWhileWaiting() throws {
        var line = Line()
        let ids = (0..<3).map { number in
            let id = line.makeID()
            _ = line.suspend(id, element: number, continuation: "c\(number)")
            return id
        }
        guard case .resume(let waiter) = line.cancel(ids[1]) else {
            Issue.record("the waiter was not handed back")
            return
        }
        #expect(waiter.continuation == "c1")
        #expect(line.removeAll().map(\.continuation) == ["c0", "c2"])
    }

    @Test("cancelling a waiter that was already resumed does nothing and leaves nothing behind")
    func cancelledAfterResuming() {
        var line = Line()
        let id = line.makeID()
        _ = line.suspend(id, element: 0, continuation: "c0")
        #expect(line.popFirst()?.continuation == "c0")
        #expect(line.cancel(id).name == "none")
        #expect(line.issuedCount == 0)
        #expect(line.isEmpty)
    }

    @Test("a withdrawn identity is forgotten: a later cancel of it does nothing")
    func withdrawn() {
        var line = Line()
        let id = line.makeID()
        line.withdraw(id)
        #expect(line.issuedCount == 0)
        #expect(line.cancel(id).name == "none")
    }

    @Test("waiters for one key leave in order, past waiters for other keys")
    func popFirstWhere() {
        var line = Line()
        for (number, key) in [1, 2, 1, 2].enumerated() {
            _ = line.suspend(line.makeID(), element: key, continuation: "k\(key)#\(number)")
        }
        #expect(line.count { $0 == 2 } == 2)
        #expect(line.popFirst { $0 == 2 }?.continuation == "k2#1")
        #expect(line.popFirst { $0 == 2 }?.continuation == "k2#3")
        #expect(line.popFirst { $0 == 2 } == nil)
        #expect(line.removeAll { $0 == 1 }.map(\.continuation) == ["k1#0", "k1#2"])
    }

    /// Random interleavings of every transition, checked against a plain model: FIFO order, each
    /// waiter answered exactly once (resumed or cancelled), no identity left behind.
    @Test("any interleaving answers every waiter exactly once, in line order", arguments: 0..<50)
    func randomInterleavings(seed: UInt64) {
        var random = ConcurrencyFixtures.SplitMix(seed: seed)
        var line = Line()
        var issued: [WaiterID] = []
        var model: [Int] = []  // suspended waiters, in order
        var answered: [Int: Int] = [:]
        var cancelledEarly: Set<WaiterID> = []
        var number = 0

        for _ in 0..<400 {
            switch random.next() % 5 {
            case 0:
                issued.append(line.makeID())
            case 1 where !issued.isEmpty:
                let id = issued.remove(at: Int(random.next() % UInt64(issued.count)))
                number += 1
                switch line.suspend(id, element: number, continuation: "\(number)") {
                case .suspended:
                    #expect(!cancelledEarly.contains(id))
                    model.append(number)
                case .cancelledBeforeSuspending:
                    #expect(cancelledEarly.remove(id) != nil)
                    answered[number, default: 0] += 1
                }
            case 2 where !issued.isEmpty:
                let id = issued[Int(random.next() % UInt64(issued.count))]
                if line.cancel(id).name == "markedBeforeSuspending" { cancelledEarly.insert(id) }
            case 3:
                if let waiter = line.popFirst() {
                    #expect(waiter.element == model.removeFirst())
                    answered[waiter.element, default: 0] += 1
                }
            default:
                if !model.isEmpty {
                    let victim = model[Int(random.next() % UInt64(model.count))]
                    let removed = line.removeAll { $0 == victim }
                    #expect(removed.map(\.element) == [victim])
                    model.removeAll { $0 == victim }
                    answered[victim, default: 0] += 1
                }
            }
            #expect(line.count == model.count)
        }
        for waiter in line.removeAll() { answered[waiter.element, default: 0] += 1 }
        for id in issued { line.withdraw(id) }
        #expect(line.issuedCount == 0)
        #expect(answered.values.allSatisfy { $0 == 1 })
    }
}

extension WaitingLine.CancelAction {
    /// The case's name, for expectations.
    fileprivate var name: String {
        switch self {
        case .resume: return "resume"
        case .markedBeforeSuspending: return "markedBeforeSuspending"
        case .none: return "none"
        }
    }
}
