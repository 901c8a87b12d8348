/// The timers of one scheduler, in firing order: by deadline, then by scheduling order.
///
/// A binary heap of deadlines beside a table of the live timers' work. Cancelling removes the
/// work from the table only; the heap drops the entry when it reaches the top, and is rebuilt
/// when dropped entries outnumber the live ones, so a stream of cancelled timers (sends that
/// ended before their deadline) holds no memory for long.
package struct TimerHeap: Sendable {
    private struct Entry: Sendable {
        let deadline: EventSystem.Instant
        let id: TimerID

        func fires(before other: Entry) -> Bool {
            (deadline, id.sequence) < (other.deadline, other.id.sequence)
        }
    }

    private var entries: [Entry] = []
    private var work: [TimerID: (purpose: TimerPurpose, run: @Sendable () async -> Void)] = [:]
    private var scheduled: UInt64 = 0

    package init() {}

    /// The number of timers scheduled and neither fired nor cancelled.
    package var count: Int { work.count }

    /// The entries the heap holds, cancelled ones not yet dropped included: what its memory
    /// grows with.
    package var storedEntries: Int { entries.count }

    /// Whether no timer is waiting.
    package var isEmpty: Bool { work.isEmpty }

    /// Adds a timer for `work` at `deadline`.
    package mutating func schedule(
        at deadline: EventSystem.Instant, for purpose: TimerPurpose,
        _ work: @escaping @Sendable () async -> Void
    ) -> TimerID {
        let id = TimerID(sequence: scheduled)
        scheduled += 1
        self.work[id] = (purpose, work)
        entries.append(Entry(deadline: deadline, id: id))
        siftUp(entries.count - 1)
        return id
    }

    /// Removes a timer that has not fired; returns whether it was waiting.
    package mutating func cancel(_ id: TimerID) -> Bool {
        guard work.removeValue(forKey: id) != nil else { return false }
        if entries.count > 64, entries.count > 2 * work.count { rebuild() }
        return true
    }

    /// The deadline of the first live timer, if any.
    package mutating func earliest() -> EventSystem.Instant? {
        dropCancelledAtTop()
        return entries.first?.deadline
    }

    /// Removes and returns the first live timer if its deadline is no later than `instant`.
    package mutating func popDue(by instant: EventSystem.Instant) -> (
        deadline: EventSystem.Instant, purpose: TimerPurpose, work: @Sendable () async -> Void
    )? {
        dropCancelledAtTop()
        guard let top = entries.first, top.deadline <= instant else { return nil }
        removeTop()
        guard let timer = work.removeValue(forKey: top.id) else { return nil }
        return (top.deadline, timer.purpose, timer.run)
    }

    /// The live timers, in firing order.
    package var pending: [(deadline: EventSystem.Instant, purpose: TimerPurpose)] {
        entries.filter { work[$0.id] != nil }.sorted { $0.fires(before: $1) }.compactMap { entry in
            work[entry.id].map { (entry.deadline, $0.purpose) }
        }
    }

    private mutating func dropCancelledAtTop() {
        while let top = entries.first, work[top.id] == nil { removeTop() }
    }

    private mutating func rebuild() {
        entries.removeAll { work[$0.id] == nil }
        for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func removeTop() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].fires(before: entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var first = left
            if left + 1 < entries.count, entries[left + 1].fires(before: entries[left]) { first = left + 1 }
            guard entries[first].fires(before: entries[parent]) else { return }
            entries.swapAt(first, parent)
            parent = first
        }
    }
}
