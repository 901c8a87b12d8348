/// A first-in, first-out queue over one array: appends at the back, pops from the front in O(1)
/// (amortised), and compacts once the consumed prefix is as long as what remains.
package struct FIFOBuffer<Element> {
    private var storage: [Element] = []
    private var head = 0

    package var isEmpty: Bool { head == storage.count }
    package var count: Int { storage.count - head }

    /// An empty queue.
    package init() {}

    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns the first element that matches (O(n); for the rare cancellation).
    package mutating func remove(where matches: (Element) -> Bool) -> Element? {
        guard let index = storage[head...].firstIndex(where: matches) else { return nil }
        return storage.remove(at: index)
    }

    /// The number of elements that match.
    package func count(where matches: (Element) -> Bool) -> Int {
        storage[head...].reduce(0) { $0 + (matches($1) ? 1 : 0) }
    }

    /// Removes and returns every element that matches, in queue order (O(n)).
    package mutating func removeAll(where matches: (Element) -> Bool) -> [Element] {
        var removed: [Element] = []
        var kept: [Element] = []
        kept.reserveCapacity(count)
        for element in storage[head...] {
            if matches(element) { removed.append(element) } else { kept.append(element) }
        }
        if !removed.isEmpty {
            storage = kept
            head = 0
        }
        return removed
    }
}
