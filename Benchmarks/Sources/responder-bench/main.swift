// responder-bench: each scenario of the library against a hand-written baseline doing the same
// work, in the same run. The scenarios and the harness are BenchmarkKit's; this executable only
// links the allocation counter: malloc-interposer, the one package-benchmark counts with. See
// Docs/Benchmarks.md.

import BenchmarkKit
import MallocInterposerC  // malloc_usable_size, declared by the interposer that replaces it
import MallocInterposerSwift

internal import Foundation

#if RemoteAndStores
    // The PostgreSQL rows' consumer processes are this executable again.
    if CommandLine.arguments.dropFirst().first == PostgresConsumerProcess.command {
        do {
            try await PostgresConsumerProcess.main(Array(CommandLine.arguments.dropFirst(2)))
        } catch {
            FileHandle.standardError.write(
                Data("responder-bench \(PostgresConsumerProcess.command): \(error)\n".utf8))
            exit(1)
        }
        exit(0)
    }
#endif

// Counting from the start: the counter's self-test (ten known blocks) says whether it works here.
MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()

let allocations = AllocationCounter(
    isSupported: true,
    read: {
        let statistics = MallocInterposerSwift.getStatistics()
        return AllocationCounter.Reading(
            allocations: UInt64(statistics.mallocCount), bytes: UInt64(statistics.mallocBytesCount))
    },
    usableSize: { pointer in
        #if canImport(Darwin)
            malloc_size(pointer)
        #else
            malloc_usable_size(UnsafeMutableRawPointer(mutating: pointer))
        #endif
    },
    liveBytes: {
        // Allocated minus freed since counting began: what the process holds on the heap now,
        // less what it held before `main`.
        let statistics = MallocInterposerSwift.getStatistics()
        return UInt64(max(0, statistics.mallocBytesCount - statistics.freeBytesCount))
    })

exit(await ResponderBench.run(arguments: Array(CommandLine.arguments.dropFirst()), allocations: allocations))
