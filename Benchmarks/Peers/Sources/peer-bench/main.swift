// peer-bench: ResponderChain's awaited send against two libraries that also move an event through
// D stages, measured in one process with alternating repetitions (responder-bench's method), for
// D = 1, 8, 64, 512. Every side sends the same 24-byte `Probe`, and every stage does the same work:
// find the probe in a 4-entry table keyed by event type (three decoys first), cast it, add its `a`
// to a counter, and pass it on, except the top stage, which consumes it.
//
// - library (`LibraryChain`): `await bottom.send(Probe)` through D `actor` responders, each on its
//   own default executor, from a task on the global concurrent executor. Each hop is an executor
//   switch into the next actor; the figure is the whole awaited send, outcome included.
// - nio (`PipelineChain`): `channel.pipeline.fireChannelRead(Probe)` on an `EmbeddedChannel` with
//   D inbound handlers, called on the channel's own thread (`PeerThread`'s). Each handler
//   unwraps the `NIOAny` as `any Event` (a conformance-checked cast) and forwards the same
//   `NIOAny` with `context.fireChannelRead`: synchronous calls on one thread, nothing returned to
//   the sender.
// - opencombine (`SubjectChain`): `PassthroughSubject.send(Probe)` into D subscribers, each
//   forwarding with its own subject's `send`, on the same thread as the sender (`PeerThread`):
//   synchronous calls and the subjects' locks, nothing returned to the sender.
//
// So the peers' figures hold no concurrency at all: they are what a synchronous, single-threaded
// pipeline costs per stage, against the library crossing actor isolation at every hop.
//
// `Measurement.swift`, `Report/Format.swift`, `Events/` and `Library/ChainActor.swift` are trimmed
// copies of responder-bench's: a nested package cannot compile files outside its folder, and
// sharing them would take a benchmark-support product in the root package, seen by every user of
// the library. Keep them in step with responder-bench's when either changes.

import Foundation

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("peer-bench: \(message)\n\n".utf8))
    }
    print(Options.usage)
    exit(error.message == nil ? 0 : 2)
}

let peers = options.peers
guard !peers.isEmpty else {
    FileHandle.standardError.write(Data("peer-bench: no peer matches \(options.filter ?? "")\n".utf8))
    exit(2)
}

let info = RunInfo.current(options)
print("peer-bench · \(info.line)")
let measurer = Measurer(options: options)
let started = ContinuousClock.now
let rows: [Row]
do {
    rows = try await Comparison(peers: peers).run(measurer) { step in
        FileHandle.standardError.write(Data("running \(step)…\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("peer-bench: a chain failed: \(error)\n".utf8))
    exit(1)
}
let elapsed = started.duration(to: .now)

print(Table(rows: rows).text)
print(
    "(\(rows.count) rows in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); checksum \(measurer.checksum))"
)

if let path = options.jsonPath {
    do {
        try JSONReport(rows: rows, run: info.dictionary).text.write(
            toFile: path, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("peer-bench: could not write \(path): \(error)\n".utf8))
        exit(1)
    }
}

if let path = options.svgPath {
    do {
        try SVGChart(rows: rows, subtitle: info.line).text.write(
            toFile: path, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("peer-bench: could not write \(path): \(error)\n".utf8))
        exit(1)
    }
}
