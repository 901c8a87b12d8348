// responder-bench: each scenario of the library against a hand-written baseline doing the same
// work, in the same run. The scenarios and the harness are BenchmarkKit's; this executable only
// links the allocation counter. See Docs/Benchmarks.md.

import BenchmarkKit
import CAllocationCounter

internal import Foundation

let allocations = AllocationCounter(
    isSupported: allocation_counter_is_supported() == 1,
    read: {
        AllocationCounter.Reading(
            allocations: allocation_counter_allocations(), bytes: allocation_counter_bytes())
    },
    usableSize: { allocation_counter_usable_size($0) },
    liveBytes: { allocation_counter_live_bytes() })

exit(await ResponderBench.run(arguments: Array(CommandLine.arguments.dropFirst()), allocations: allocations))
