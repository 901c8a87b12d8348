import Synchronization

/// The responders one event has visited, to detect a cycle before any handler runs twice.
///
/// It keeps each visited responder alive until the send ends: an identity alone could be reused
/// by a new object allocated where a visited one was freed mid-flight, which would look like a
/// cycle.
///
/// The first 16 responders are kept inline (in the routing task's frame, not on the heap), so a
/// typical chain allocates nothing here. Longer chains spill into an open-addressing table of
/// addresses that doubles as it fills (linear time at any depth). When the send ends, the table
/// is emptied and kept for the next deep send (one table is kept for the whole process), so a
/// process that routes deep chains one after another allocates nothing per send at any depth.
struct VisitedResponders: ~Copyable {
    private typealias Inline = (
        UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt
    )
    private static var inlineCapacity: Int { 16 }

    /// The addresses of the first `inlineCount` responders, each retained once (released in
    /// `deinit`).
    private var inline: Inline = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var inlineCount = 0
    /// One bit per recorded responder, at a position hashed from its address: a responder whose
    /// bit is clear was not visited, and needs no search (a hop's common case, at any depth).
    private var seenBits: UInt64 = 0
    /// The responders past the first 16, each retained once.
    private var overflow: OverflowTable?

    init() {}

    /// Records `responder`; returns `false` if it was visited before.
    mutating func insert(_ responder: any Responder) -> Bool {
        let object = responder as AnyObject
        let bits = UInt(bitPattern: ObjectIdentifier(object))
        let count = inlineCount
        let bit = Self.filterBit(of: bits)
        let mayBeSeen = seenBits & bit != 0
        seenBits |= bit
        if mayBeSeen {
            let seen = withUnsafeBytes(of: &inline) { raw in
                for slot in 0..<count
                where raw.load(fromByteOffset: slot &* MemoryLayout<UInt>.stride, as: UInt.self) == bits {
                    return true
                }
                return false
            }
            if seen { return false }
        }
        if count < Self.inlineCapacity {
            _ = Unmanaged.passRetained(object)  // balanced in deinit
            withUnsafeMutableBytes(of: &inline) { raw in
                raw.storeBytes(of: bits, toByteOffset: count &* MemoryLayout<UInt>.stride, as: UInt.self)
            }
            inlineCount = count &+ 1
            return true
        }
        if overflow == nil { overflow = OverflowTable.reused() }
        guard overflow!.insert(bits) else { return false }
        _ = Unmanaged.passRetained(object)  // balanced by `releaseAll` in deinit
        return true
    }

    deinit {
        let count = inlineCount
        withUnsafeBytes(of: inline) { raw in
            for slot in 0..<count {
                let bits = raw.load(fromByteOffset: slot &* MemoryLayout<UInt>.stride, as: UInt.self)
                Self.release(bits)
            }
        }
        if var overflow {
            overflow.releaseAll()
            overflow.recycle()
        }
    }

    /// The bit of ``seenBits`` for the address `bits`: Fibonacci hashing, since addresses are
    /// aligned and clustered and the product's high bits are not.
    @inline(__always)
    private static func filterBit(of bits: UInt) -> UInt64 {
        1 &<< (UInt64(truncatingIfNeeded: (bits >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    fileprivate static func release(_ bits: UInt) {
        if let pointer = UnsafeRawPointer(bitPattern: bits) {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }
}

/// The spill-over set of ``VisitedResponders``: object addresses in a power-of-two table with
/// linear probing, never more than half full; 0 marks an empty slot.
private struct OverflowTable {
    private var slots: UnsafeMutableBufferPointer<UInt>
    private var count = 0

    private static var initialCapacity: Int { 64 }

    /// The address of the one table kept between sends (0 while a send uses it, or before the
    /// first). Each table's allocation starts with a header word holding its capacity, before
    /// its slots. (An address, not a pointer: pointers are not `Sendable`, and the table is only
    /// ever used by the one send that took it.)
    ///
    /// An atomic pointer rather than a lock: a send takes it with one exchange and gives it back
    /// with one compare-and-exchange; when two deep sends overlap, the second allocates its own
    /// table and frees it at its end. Sound because a taken table belongs to the one send that
    /// took it until it gives it back. What it buys: a send at D = 512 allocates once instead of
    /// six times ("Design notes measured" in Benchmarks.md).
    private static let spare = Atomic<UInt>(0)

    private init(slots: UnsafeMutableBufferPointer<UInt>) {
        self.slots = slots
    }

    /// The kept table, emptied, or a new one.
    static func reused() -> OverflowTable {
        if let header = UnsafeMutablePointer<UInt>(bitPattern: spare.exchange(0, ordering: .acquiring)) {
            return OverflowTable(
                slots: UnsafeMutableBufferPointer(start: header + 1, count: Int(header.pointee)))
        }
        return OverflowTable(slots: allocate(capacity: initialCapacity))
    }

    /// Empty slots after a header word holding their number.
    private static func allocate(capacity: Int) -> UnsafeMutableBufferPointer<UInt> {
        let header = UnsafeMutablePointer<UInt>.allocate(capacity: capacity &+ 1)
        header.initialize(to: UInt(capacity))
        let slots = UnsafeMutableBufferPointer(start: header + 1, count: capacity)
        slots.initialize(repeating: 0)
        return slots
    }

    private static func deallocate(_ slots: UnsafeMutableBufferPointer<UInt>) {
        (slots.baseAddress! - 1).deallocate()
    }

    /// Adds `bits`; `false` if it is there already.
    mutating func insert(_ bits: UInt) -> Bool {
        if (count &+ 1) &* 2 > slots.count { grow() }
        var slot = Self.home(of: bits, mask: slots.count &- 1)
        while true {
            let occupant = slots[slot]
            if occupant == bits { return false }
            if occupant == 0 {
                slots[slot] = bits
                count &+= 1
                return true
            }
            slot = (slot &+ 1) & (slots.count &- 1)
        }
    }

    private static func home(of bits: UInt, mask: Int) -> Int {
        // Fibonacci hashing: addresses are aligned and clustered, the high bits of the product
        // are not.
        let mixed = (bits >> 4) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    private mutating func grow() {
        let old = slots
        slots = Self.allocate(capacity: old.count &* 2)
        let mask = slots.count &- 1
        for bits in old where bits != 0 {
            var slot = Self.home(of: bits, mask: mask)
            while slots[slot] != 0 { slot = (slot &+ 1) & mask }
            slots[slot] = bits
        }
        Self.deallocate(old)
    }

    /// Releases every responder recorded here and empties the table.
    mutating func releaseAll() {
        for index in slots.indices where slots[index] != 0 {
            VisitedResponders.release(slots[index])
            slots[index] = 0
        }
        count = 0
    }

    /// Keeps the (empty) table for the next send, or frees it if one is kept already.
    func recycle() {
        let header = slots.baseAddress! - 1
        let address = UInt(bitPattern: header)
        if Self.spare.compareExchange(expected: 0, desired: address, ordering: .releasing).exchanged {
            return
        }
        Self.deallocate(slots)
    }
}
