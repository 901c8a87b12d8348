/// A first-in, first-out queue over one array: appends at the back, pops from the front in O(1)
/// (amortised), and compacts once the consumed prefix is as long as what remains.
struct FIFOBuffer<Element> {
    private var storage: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    mutating func popFirst() -> Element? {
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
    mutating func remove(where matches: (Element) -> Bool) -> Element? {
        guard let index = storage[head...].firstIndex(where: matches) else { return nil }
        return storage.remove(at: index)
    }
}
