import ResponderChain
import Testing

/// The queue under every waiting line and every post lane, against a plain array doing the same.
@Suite("FIFO buffer")
struct FIFOBufferTests {
    @Test("elements come out in the order they went in, across wrap-arounds and growth")
    func orderAcrossWrapAndGrowth() {
        var buffer = FIFOBuffer<Int>()
        var expected: [Int] = []
        var next = 0
        // Keep 10 in the ring while cycling through it many times, then grow past 16 and 32.
        for round in 0..<200 {
            buffer.append(next)
            expected.append(next)
            next += 1
            if round >= 10 { #expect(buffer.popFirst() == expected.removeFirst()) }
        }
        for _ in 0..<40 {
            buffer.append(next)
            expected.append(next)
            next += 1
        }
        #expect(buffer.count == expected.count)
        var drained: [Int] = []
        while let value = buffer.popFirst() { drained.append(value) }
        #expect(drained == expected)
        #expect(buffer.isEmpty)
        #expect(buffer.popFirst() == nil)
    }

    @Test("random appends, pops and removals agree with an array", arguments: [1, 2, 3, 4, 5])
    func agreesWithAnArray(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var buffer = FIFOBuffer<Int>()
        var model: [Int] = []
        for value in 0..<3_000 {
            switch random.next() % 6 {
            case 0, 1, 2:
                buffer.append(value)
                model.append(value)
            case 3:
                #expect(buffer.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
            case 4:
                let divisor = Int(random.next() % 7) + 2
                let removed = buffer.remove(where: { $0 % divisor == 0 })
                let index = model.firstIndex(where: { $0 % divisor == 0 })
                #expect(removed == index.map { model.remove(at: $0) })
            default:
                let divisor = Int(random.next() % 11) + 5
                #expect(
                    buffer.count(where: { $0 % divisor == 0 }) == model.count(where: { $0 % divisor == 0 }))
                if random.next() % 4 == 0 {
                    let removed = buffer.removeAll(where: { $0 % divisor == 1 })
                    #expect(removed == model.filter { $0 % divisor == 1 })
                    model.removeAll(where: { $0 % divisor == 1 })
                }
            }
            #expect(buffer.count == model.count)
        }
        var drained: [Int] = []
        while let value = buffer.popFirst() { drained.append(value) }
        #expect(drained == model)
    }

    @Test("a popped element is released by the queue at once")
    func poppedElementIsNotRetained() {
        final class Token {}
        var buffer = FIFOBuffer<Token>()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            buffer.append(token)
            buffer.append(Token())
            _ = buffer.popFirst()
        }
        #expect(weakToken == nil)
        #expect(buffer.count == 1)
    }
}

/// A small seeded generator, so that a failing seed can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
