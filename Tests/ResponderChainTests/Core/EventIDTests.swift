@testable import ResponderChain
import Testing

/// A random number generator that yields the numbers it was given, in turn, then repeats them.
private struct ScriptedGenerator: RandomNumberGenerator {
    let numbers: [UInt64]
    var index = 0

    init(_ numbers: UInt64...) {
        self.numbers = numbers
    }

    mutating func next() -> UInt64 {
        defer { index = (index + 1) % numbers.count }
        return numbers[index]
    }
}

@Suite("An event identifier")
struct EventIDTests {
    @Test("is made with this process's one epoch, never 0, and a sequence that counts up")
    func madeWithTheProcessEpoch() {
        let ids = (0..<100).map { _ in EventID() }
        let epoch = ids[0].epoch
        #expect(epoch != 0)
        #expect(ids.allSatisfy { $0.epoch == epoch })
        // Other tests make identifiers meanwhile: the sequence only counts up, with gaps.
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    }

    @Test("increases, within one process, in the order the identifiers are made")
    func increasesInOrder() {
        let ids = (0..<100).map { _ in EventID() }
        #expect(ids == ids.sorted())
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("made from many tasks at once, is never made twice")
    func uniqueUnderConcurrency() async {
        let ids = await withTaskGroup(of: [EventID].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<1_000).map { _ in EventID() } }
            }
            return await group.reduce(into: [EventID]()) { $0 += $1 }
        }
        #expect(Set(ids).count == 8_000)
    }

    @Test(
        "of another process never equals one of this process, even with the same sequence",
        arguments: [UInt64(0), 1, 0x5f1c_09d2_e4b7_a836, .max])
    func differsAcrossEpochs(otherEpoch: UInt64) throws {
        let here = EventID()
        try #require(otherEpoch != here.epoch)
        let there = EventID(epoch: otherEpoch, sequence: here.sequence)
        #expect(there != here)
        #expect(Set([here, there]).count == 2)
        #expect((there < here) != (here < there))
    }

    @Test("draws each process's epoch from the generator, never 0")
    func epochDrawing() {
        #expect(EventID.drawEpoch(using: ScriptedGenerator(0)) != 0)
        #expect(EventID.drawEpoch(using: ScriptedGenerator(.max)) != 0)
        let first = EventID.drawEpoch(using: ScriptedGenerator(0x1234_5678_9abc_def0))
        let second = EventID.drawEpoch(using: ScriptedGenerator(0x0fed_cba9_8765_4321))
        #expect(first != second)
    }

    @Test(
        "orders by epoch, then by sequence",
        arguments: [
            (EventID(epoch: 1, sequence: 2), EventID(epoch: 1, sequence: 3)),
            (EventID(epoch: 1, sequence: 9), EventID(epoch: 2, sequence: 1)),
            (EventID(epoch: 0, sequence: .max), EventID(epoch: 1, sequence: 0)),
        ])
    func ordering(smaller: EventID, larger: EventID) {
        #expect(smaller < larger)
        #expect(!(larger < smaller))
        #expect(smaller != larger)
    }

    @Test("comes back the same from its two parts, as a store writes and reads them")
    func roundTripThroughParts() {
        let id = EventID()
        let row = (epoch: id.epoch, sequence: id.sequence)
        let read = EventID(epoch: row.epoch, sequence: row.sequence)
        #expect(read == id)
        #expect(read.hashValue == id.hashValue)
    }

    @Test("describes itself by its sequence, and in full with its epoch in 16 hexadecimal digits")
    func descriptions() {
        let id = EventID(epoch: 0x5f1c_09d2_e4b7_a836, sequence: 42)
        #expect(id.description == "#42")
        #expect(id.debugDescription == "5f1c09d2e4b7a836#42")
        #expect(String(reflecting: EventID(epoch: 0xa, sequence: 7)) == "000000000000000a#7")
    }

    @Test(
        "comes back the same from its full form",
        arguments: [
            EventID(epoch: 0x5f1c_09d2_e4b7_a836, sequence: 42), EventID(epoch: 0, sequence: 0),
            EventID(epoch: .max, sequence: .max), EventID(),
        ])
    func roundTripThroughFullForm(id: EventID) {
        #expect(EventID(debugDescription: id.debugDescription) == id)
    }

    @Test(
        "reads no identifier from text that is not a full form",
        arguments: [
            "", "#42", "42", "5f1c09d2e4b7a836", "5f1c09d2e4b7a836#", "5f1c09d2e4b7a83#42",
            "05f1c09d2e4b7a836#42", "5f1c09d2e4b7a836#+42", "5f1c09d2e4b7a836#-1", "5f1c09d2e4b7a836#4 2",
            "5f1c09d2e4b7a83g#42", "5f1c09d2e4b7a836#42#1", "5f1c09d2e4b7a836#18446744073709551616",
        ])
    func rejectsOtherText(text: String) {
        #expect(EventID(debugDescription: text) == nil)
    }
}
