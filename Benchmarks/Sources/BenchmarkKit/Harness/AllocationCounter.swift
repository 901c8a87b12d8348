/// Process-wide heap allocation counts, read through functions that the executable supplies
/// (responder-bench's come from malloc-interposer, the interposer package-benchmark counts
/// with). The kit links no allocator of its own: the package-benchmark suites link it too, and
/// count with the benchmark package's interposer alone.
package struct AllocationCounter: Sendable {
    /// A reading of the counters.
    package struct Reading: Sendable {
        package var allocations: UInt64
        package var bytes: UInt64

        package init(allocations: UInt64, bytes: UInt64) {
            self.allocations = allocations
            self.bytes = bytes
        }

        /// What was allocated between `earlier` and this reading.
        func since(_ earlier: Reading) -> Reading {
            Reading(allocations: allocations &- earlier.allocations, bytes: bytes &- earlier.bytes)
        }
    }

    private let read: @Sendable () -> Reading
    private let usable: @Sendable (UnsafeRawPointer) -> Int
    private let live: @Sendable () -> UInt64
    /// Whether counting works in this build: the platform is supported and a self-test that
    /// allocates ten known blocks sees at least those ten allocations and their bytes.
    let isWorking: Bool

    /// A counter that reads `read`, `usableSize` for the usable size of a heap block and
    /// `liveBytes` for the heap in use; `isSupported` is false where nothing is counted.
    package init(
        isSupported: Bool, read: @escaping @Sendable () -> Reading,
        usableSize: @escaping @Sendable (UnsafeRawPointer) -> Int,
        liveBytes: @escaping @Sendable () -> UInt64 = { 0 }
    ) {
        self.read = read
        self.usable = usableSize
        self.live = liveBytes
        isWorking = isSupported && Self.selfTest(read)
    }

    /// The bytes of the heap in use now, as the allocator counts them; 0 where unknown.
    var liveBytes: UInt64 { live() }

    /// A counter that counts nothing.
    package static let unsupported = AllocationCounter(
        isSupported: false, read: { Reading(allocations: 0, bytes: 0) }, usableSize: { _ in 0 })

    /// The counters now.
    var now: Reading { read() }

    /// The usable size of the heap block at `pointer` (`malloc_usable_size`); 0 where unknown.
    func usableSize(of pointer: UnsafeRawPointer) -> Int {
        usable(pointer)
    }

    /// What `body` allocated, process-wide.
    func measure<Result>(_ body: () throws -> Result) rethrows -> (Result, Reading) {
        let before = now
        let result = try body()
        return (result, now.since(before))
    }

    private static func selfTest(_ read: () -> Reading) -> Bool {
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(10)
        let afterReserve = read()
        for _ in 0..<10 { blocks.append(.allocate(byteCount: 1000, alignment: 16)) }
        let counted = read().since(afterReserve)
        for block in blocks { block.deallocate() }
        return counted.allocations >= 10 && counted.bytes >= 10_000
    }
}
