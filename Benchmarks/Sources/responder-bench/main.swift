// responder-bench: each scenario of the library against a hand-written baseline doing the same
// work, in the same run. The scenarios and the harness are BenchmarkKit's; this executable only
// links the allocation counter. See Docs/Benchmarks.md.

import BenchmarkKit
import CAllocationCounter

internal import Foundation

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

let allocations = AllocationCounter(
    isSupported: allocation_counter_is_supported() == 1,
    read: {
        AllocationCounter.Reading(
            allocations: allocation_counter_allocations(), bytes: allocation_counter_bytes())
    },
    usableSize: { allocation_counter_usable_size($0) },
    liveBytes: { allocation_counter_live_bytes() })

exit(await ResponderBench.run(arguments: Array(CommandLine.arguments.dropFirst()), allocations: allocations))
