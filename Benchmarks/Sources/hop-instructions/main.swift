// hop-instructions: one awaited-send loop over one chain, for `valgrind --tool=callgrind` to count
// its instructions (`.ci/hop-instructions` runs it at two depths and two lengths and prints the
// instructions per send and per hop). `main` stays synchronous, which Valgrind follows (it dies
// on an async `main`, and on `dispatchMain()`'s signal wait): the main thread waits on a
// semaphore while the loop runs on the concurrency runtime's threads, or, for the main-actor
// chains, runs the main run loop, on which the main actor's jobs run.
//
//     hop-instructions <chain> <depth> <iterations>
//     chains: InstructionLoop.chains (the usage message lists them)

import BenchmarkKit
import Dispatch

internal import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, InstructionLoop.chains.contains(arguments[1]),
    let depth = Int(arguments[2]), depth > 0, let iterations = Int(arguments[3]), iterations > 0
else {
    FileHandle.standardError.write(
        Data(
            "usage: hop-instructions <chain> <depth> <iterations>\nchains: \(InstructionLoop.chains.joined(separator: ", "))\n"
                .utf8))
    exit(2)
}

let chain = arguments[1]
let finished = DispatchSemaphore(value: 0)
Task.detached {
    let checksum = await InstructionLoop.run(chain, depth: depth, iterations: iterations) ?? 0
    print("\(chain) D=\(depth) N=\(iterations) checksum \(checksum)")
    finished.signal()
    exit(0)
}
if chain.hasPrefix("main") {
    RunLoop.main.run()
} else {
    finished.wait()
}
