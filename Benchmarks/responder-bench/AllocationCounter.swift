import CAllocationCounter

/// Process-wide heap allocation counts, from the `CAllocationCounter` target (which interposes
/// `malloc` and friends on Linux; elsewhere nothing is counted).
struct AllocationCounter {
    /// A reading of the counters.
    struct Reading {
        var allocations: UInt64
        var bytes: UInt64

        /// What was allocated between `earlier` and this reading.
        func since(_ earlier: Reading) -> Reading {
            Reading(allocations: allocations &- earlier.allocations, bytes: bytes &- earlier.bytes)
        }
    }

    /// The counters now.
    static var now: Reading {
        Reading(
            allocations: allocation_counter_allocations(), bytes: allocation_counter_bytes())
    }

    /// Whether counting works in this build: the platform is supported and a self-test that
    /// allocates ten known blocks sees at least those ten allocations and their bytes.
    static let isWorking: Bool = {
        guard allocation_counter_is_supported() == 1 else { return false }
        let before = now
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(10)
        let afterReserve = now
        for _ in 0..<10 { blocks.append(.allocate(byteCount: 1000, alignment: 16)) }
        let counted = now.since(afterReserve)
        for block in blocks { block.deallocate() }
        return before.allocations > 0 && counted.allocations >= 10 && counted.bytes >= 10_000
    }()

    /// The usable size of the heap block at `pointer` (`malloc_usable_size`); 0 where unknown.
    static func usableSize(of pointer: UnsafeRawPointer) -> Int {
        allocation_counter_usable_size(pointer)
    }

    /// What `body` allocated, process-wide.
    static func measure<Result>(_ body: () throws -> Result) rethrows -> (Result, Reading) {
        let before = now
        let result = try body()
        return (result, now.since(before))
    }
}
