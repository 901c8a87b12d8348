/// A first-in, first-out queue in a ring of slots: appends at the back and pops from the front in
/// O(1), moving each element in and out (a popped element leaves no copy behind to release later).
/// The ring doubles when full; removing from the middle (a cancelled waiter or post) shifts the
/// elements behind it.
package struct FIFOBuffer<Element> {
    private var slots: [Element?] = []
    /// The slot of the first element.
    private var head = 0
    package private(set) var count = 0

    package var isEmpty: Bool { count == 0 }

    package init() {}

    /// Appends `element` at the back.
    package mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[physical(count)] = element
        count += 1
    }

    /// Removes and returns the first element, or `nil` when empty.
    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = head + 1 == slots.count ? 0 : head + 1
        count -= 1
        if count == 0 { head = 0 }
        return element
    }

    /// Removes and returns the first element that `matches`, keeping the order of the others.
    package mutating func remove(where matches: (Element) -> Bool) -> Element? {
        guard let offset = (0..<count).first(where: { matches(slots[physical($0)]!) }) else { return nil }
        let element = slots[physical(offset)].take()
        for later in offset..<(count - 1) {
            slots[physical(later)] = slots[physical(later + 1)].take()
        }
        count -= 1
        return element
    }

    /// The number of elements that `matches`.
    package func count(where matches: (Element) -> Bool) -> Int {
        (0..<count).reduce(0) { $0 + (matches(slots[physical($1)]!) ? 1 : 0) }
    }

    /// Removes every element that `matches` and returns them in order; the others keep theirs.
    package mutating func removeAll(where matches: (Element) -> Bool) -> [Element] {
        var removed: [Element] = []
        var kept = FIFOBuffer()
        while let element = popFirst() {
            if matches(element) { removed.append(element) } else { kept.append(element) }
        }
        self = kept
        return removed
    }

    /// The slot of the element `offset` places from the front.
    private func physical(_ offset: Int) -> Int {
        let slot = head + offset
        return slot < slots.count ? slot : slot - slots.count
    }

    /// Doubles the ring, moving the elements to its start in order.
    private mutating func grow() {
        var larger = [Element?](repeating: nil, count: Swift.max(16, slots.count * 2))
        for offset in 0..<count {
            larger[offset] = slots[physical(offset)].take()
        }
        slots = larger
        head = 0
    }
}
