/// The responders one event has visited, to detect a cycle before any handler runs twice.
///
/// It keeps each visited responder alive until the send ends: an identity alone could be reused
/// by a new object allocated where a visited one was freed mid-flight, which would look like a
/// cycle.
///
/// The first 16 responders are kept inline (in the routing task's frame, not on the heap), so a
/// typical chain allocates nothing here; longer chains spill into a set reserved for 512 more
/// (two allocations, whatever the depth up to 528), which keeps a 10,000-deep chain linear in time.
struct VisitedResponders: ~Copyable {
    private typealias Inline = (
        UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt
    )
    private static var inlineCapacity: Int { 16 }

    /// The addresses of the first `inlineCount` responders, each retained once (released in
    /// `deinit`).
    private var inline: Inline = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var inlineCount = 0
    private var overflow: Set<ObjectIdentifier> = []
    private var overflowAlive: [AnyObject] = []

    init() {}

    /// Records `responder`; returns `false` if it was already visited.
    mutating func insert(_ responder: any Responder) -> Bool {
        let object = responder as AnyObject
        let bits = UInt(bitPattern: ObjectIdentifier(object))
        let count = inlineCount
        let seen = withUnsafeBytes(of: &inline) { raw in
            (0..<count).contains {
                raw.load(fromByteOffset: $0 * MemoryLayout<UInt>.stride, as: UInt.self) == bits
            }
        }
        if seen { return false }
        if count < Self.inlineCapacity {
            _ = Unmanaged.passRetained(object)  // balanced in deinit
            withUnsafeMutableBytes(of: &inline) { raw in
                raw.storeBytes(of: bits, toByteOffset: count * MemoryLayout<UInt>.stride, as: UInt.self)
            }
            inlineCount = count + 1
            return true
        }
        if overflowAlive.isEmpty {
            // Reserve once, when a chain outgrows the inline slots: a deep chain then allocates
            // the same two blocks whatever its depth, up to 512 more responders.
            overflow.reserveCapacity(512)
            overflowAlive.reserveCapacity(512)
        }
        guard overflow.insert(ObjectIdentifier(object)).inserted else { return false }
        overflowAlive.append(object)
        return true
    }

    deinit {
        let count = inlineCount
        withUnsafeBytes(of: inline) { raw in
            for slot in 0..<count {
                let bits = raw.load(fromByteOffset: slot * MemoryLayout<UInt>.stride, as: UInt.self)
                if let pointer = UnsafeRawPointer(bitPattern: bits) {
                    Unmanaged<AnyObject>.fromOpaque(pointer).release()
                }
            }
        }
    }
}
