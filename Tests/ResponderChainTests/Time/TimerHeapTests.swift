import ResponderChain
import Testing

@Suite("Timer heap")
struct TimerHeapTests {
    private static func at(_ milliseconds: Int) -> EventSystem.Instant {
        EventSystem.Instant(offset: .milliseconds(milliseconds))
    }

    /// Pops every timer due by `instant` and returns their deadlines in milliseconds, in order.
    private static func popAll(_ heap: inout TimerHeap, by instant: EventSystem.Instant) -> [Int] {
        var popped: [Int] = []
        while let timer = heap.popDue(by: instant) {
            popped.append(Int(timer.deadline.offset / .milliseconds(1)))
        }
        return popped
    }

    @Test("timers come out in deadline order, whatever order they were scheduled in")
    func deadlineOrder() {
        var heap = TimerHeap()
        for milliseconds in [50, 10, 40, 20, 30, 5, 45] {
            _ = heap.schedule(at: Self.at(milliseconds), for: .sleep) {}
        }
        #expect(Self.popAll(&heap, by: Self.at(100)) == [5, 10, 20, 30, 40, 45, 50])
        #expect(heap.isEmpty)
    }

    @Test("timers with the same deadline come out in the order they were scheduled")
    func tiesInSchedulingOrder() {
        var heap = TimerHeap()
        for index in 0..<20 {
            _ = heap.schedule(at: Self.at(index % 2 == 0 ? 10 : 5), for: .other("timer \(index)")) {}
        }
        var purposes: [String] = []
        while let timer = heap.popDue(by: Self.at(10)) { purposes.append(timer.purpose.description) }
        let odd = stride(from: 1, to: 20, by: 2).map { "timer \($0)" }
        let even = stride(from: 0, to: 20, by: 2).map { "timer \($0)" }
        #expect(purposes == odd + even)
    }

    @Test("only the timers due by the instant come out; the others stay, in order")
    func onlyDueTimers() {
        var heap = TimerHeap()
        for milliseconds in [30, 10, 20] { _ = heap.schedule(at: Self.at(milliseconds), for: .sleep) {} }
        #expect(Self.popAll(&heap, by: Self.at(20)) == [10, 20])
        #expect(heap.count == 1)
        let earliest = heap.earliest()
        #expect(earliest == Self.at(30))
        #expect(heap.pending.map(\.deadline) == [Self.at(30)])
    }

    @Test(
        "a cancelled timer never comes out, and cancelling it again or after it fired says it was not waiting"
    )
    func cancel() {
        var heap = TimerHeap()
        let first = heap.schedule(at: Self.at(10), for: .sleep) {}
        let second = heap.schedule(at: Self.at(20), for: .sleep) {}
        let cancelled = heap.cancel(first)
        let cancelledAgain = heap.cancel(first)
        #expect(cancelled && !cancelledAgain)
        #expect(heap.count == 1)
        let earliest = heap.earliest()
        #expect(earliest == Self.at(20))
        #expect(Self.popAll(&heap, by: Self.at(100)) == [20])
        let cancelledAfterFiring = heap.cancel(second)
        let earliestLeft = heap.earliest()
        #expect(!cancelledAfterFiring)
        #expect(heap.isEmpty && earliestLeft == nil)
    }

    @Test("the pending timers read in firing order, with what each is for")
    func pendingInFiringOrder() {
        var heap = TimerHeap()
        _ = heap.schedule(at: Self.at(20), for: .gracePeriod) {}
        let cancelled = heap.schedule(at: Self.at(5), for: .sleep) {}
        _ = heap.schedule(at: Self.at(10), for: .other("a gesture")) {}
        _ = heap.cancel(cancelled)
        #expect(heap.pending.map(\.deadline) == [Self.at(10), Self.at(20)])
        #expect(heap.pending.map(\.purpose.description) == ["a gesture", "the shutdown's grace period"])
    }

    @Test("many timers cancelled before they fire leave the heap small")
    func compactionBounded() {
        var heap = TimerHeap()
        // One timer that stays, far out, so that the cancelled ones never reach the top.
        _ = heap.schedule(at: Self.at(1_000_000), for: .sleep) {}
        var largest = 0
        for index in 0..<100_000 {
            let timer = heap.schedule(at: Self.at(index), for: .sleep) {}
            _ = heap.cancel(timer)
            largest = max(largest, heap.storedEntries)
        }
        // Rebuilt once the dropped entries outnumber the live ones past 64 entries.
        #expect(largest <= 65)
        #expect(heap.count == 1)
        #expect(Self.popAll(&heap, by: Self.at(1_000_000)) == [1_000_000])
    }
}
