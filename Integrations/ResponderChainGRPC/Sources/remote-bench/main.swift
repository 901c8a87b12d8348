// remote-bench: the remote hop (a front responder → RemoteLink → a backend entry, over gRPC)
// against bare gRPC calls carrying the same payload, in one process and one run. See
// Docs/Benchmarks.md, "The remote hop over gRPC".

import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import ResponderChain
import ResponderChainGRPC

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("remote-bench: \(message)\n\n".utf8))
    }
    print(Options.usage)
    exit(error.message == nil ? 0 : 2)
}

/// A measured path: its row in the table and its batch.
struct Path {
    var row: Row
    var batch: Batch

    init(_ row: Row, _ batch: @escaping Batch) {
        self.row = row
        self.batch = batch
    }
}

/// Stops the run: a path gave a wrong result, or the servers could not start.
func fail(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("remote-bench: FAILED: \(error)\n".utf8))
    exit(1)
}

#if DEBUG
    let build = "DEBUG build"
#else
    let build = "release build"
#endif
print("remote-bench · \(RunInfo.line(options)) · \(build)")
if options.quick || build != "release build" {
    print(
        "(\(options.quick ? "quick run: a few iterations per path, to check that every path works" : "not a release build")"
            + "; the figures only mean something in a full run of a release build)")
}

let started = ContinuousClock.now

// The backend: an entry in its own system, exposed under "orders".
let backSystem = EventSystem()
let entry = EntryResponder(system: backSystem)
let entries = RemoteEntries(["orders": entry], registry: benchRegistry())
let frontSystem = EventSystem()

// One send through an in-process transport gives the exact request the link writes and the
// reply it reads: the payload of the baselines.
let capture = CapturingTransport(InProcessTransport(entries, peer: "front"))
let captureFront = FrontResponder(
    "front",
    link: RemoteLink(entry: "orders", transport: capture, registry: benchRegistry(), system: frontSystem),
    system: frontSystem)
do { try Order.check(await captureFront.send(Order.event, options: Order.options)) } catch { fail(error) }
guard let (request, reply) = capture.first.map({ ($0.request, $0.reply) }) else {
    fail(BenchFailure("no request was captured"))
}
let requestBytes: [UInt8]
let replyBytes: [UInt8]
do {
    requestBytes = Array(try JSONEncoder().encode(request))
    replyBytes = Array(try JSONEncoder().encode(reply))
} catch {
    fail(error)
}
print(
    "payload: request \(requestBytes.count) B, reply \(replyBytes.count) B (JSON); "
        + "\(options.repetitions) repetitions of ≥ \(options.repetitionTarget) per path, in alternation")

let echoServer = GRPCServer(
    transport: .http2NIOPosix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
    services: [EchoService(request: requestBytes, reply: reply, replyBytes: replyBytes)])
let remoteServer = RemoteChainServer(entries: entries, host: "127.0.0.1", port: 0)

var rows: [Row] = []
do {
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await echoServer.serve() }
        group.addTask { try await remoteServer.run() }
        guard let echoPort = try await echoServer.listeningAddress?.ipv4?.port else {
            throw BenchFailure("the echo server listens on no IPv4 address")
        }
        let remotePort = try await remoteServer.listeningPort

        let client = GRPCClient(
            transport: try .http2NIOPosix(
                target: .ipv4(address: "127.0.0.1", port: echoPort), transportSecurity: .plaintext))
        group.addTask { try await client.runConnections() }
        let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: remotePort)
        group.addTask { try await transport.run() }

        let registry = benchRegistry()
        let link = RemoteLink(entry: "orders", transport: transport, registry: registry, system: frontSystem)
        try await link.checkRegistry()
        let inProcessLink = RemoteLink(
            entry: "orders", transport: InProcessTransport(entries, peer: "front"), registry: registry,
            system: frontSystem)
        let hop = RemoteHop(
            fronts: (0..<options.concurrency).map { _ in
                FrontResponder("front", link: link, system: frontSystem)
            },
            inProcessFront: FrontResponder("front", link: inProcessLink, system: frontSystem))
        let bare = BareGRPC(
            client: client, request: requestBytes, requestMessage: request, replyBytes: replyBytes)
        let senders = options.concurrency

        let paths: [Path] = [
            Path(
                Row(path: "bare gRPC unary (the payload's bytes, no coding)", concurrency: 1, baseline: nil),
                { try await bare.unary(iterations: $0, callers: 1) }
            ),
            Path(
                Row(
                    path: "bare gRPC unary, JSON-coded RemoteRequest → RemoteReply", concurrency: 1,
                    baseline: 0),
                { try await bare.unaryJSON(iterations: $0) }
            ),
            Path(
                Row(path: "bare gRPC bidirectional stream, ping-pong", concurrency: 1, baseline: 0),
                { try await bare.pingPong(iterations: $0) }
            ),
            Path(
                Row(path: "bare gRPC bidirectional stream, pipelined", concurrency: 1, baseline: 0),
                { try await bare.pipelined(iterations: $0) }
            ),
            Path(
                Row(
                    path: "remote hop in process (InProcessTransport, no gRPC), awaited send", concurrency: 1),
                { try await RemoteHop.send(from: hop.inProcessFront, iterations: $0) }
            ),
            Path(
                Row(path: "remote hop over gRPC, awaited send", concurrency: 1, baseline: 0),
                { try await RemoteHop.send(from: hop.fronts[0], iterations: $0) }
            ),
            Path(
                Row(path: "remote hop over gRPC, posted, 1 sender", concurrency: 1, baseline: 0),
                { try await hop.post(iterations: $0, senders: 1) }
            ),
            Path(
                Row(
                    path: "bare gRPC unary, \(senders) concurrent callers", concurrency: senders, baseline: 0),
                { try await bare.unary(iterations: $0, callers: senders) }
            ),
            Path(
                Row(
                    path: "remote hop over gRPC, posted, \(senders) senders", concurrency: senders,
                    baseline: 7),
                { try await hop.post(iterations: $0, senders: senders) }
            ),
        ]
        let samples = try await Measurer(options: options).measure(paths.map(\.batch))
        rows = zip(paths, samples).map { path, sample in
            var row = path.row
            row.sample = sample
            return row
        }

        client.beginGracefulShutdown()
        transport.shutDown()
        echoServer.beginGracefulShutdown()
        remoteServer.beginGracefulShutdown()
    }
} catch {
    fail(error)
}

print(Table(rows: rows).markdown)
let bareCall = rows[0].sample.median
let jsonCall = rows[1].sample.median
let inProcess = rows[4].sample.median
let awaited = rows[5].sample.median
print(
    """

    The remote hop (awaited send) takes \(Format.number(awaited / 1_000)) µs: \
    \(Format.signed((awaited - bareCall) / 1_000)) µs (\(Format.fixed(awaited / bareCall, digits: 2))×) \
    beyond a bare unary call with the same bytes, \(Format.signed((awaited - jsonCall) / 1_000)) µs \
    beyond one that also codes the same messages as JSON. The library's side of it without a \
    network (in-process transport): \(Format.number(inProcess / 1_000)) µs.
    Posted with \(options.concurrency) senders: \(Format.grouped(Int((1e9 / rows[8].sample.median).rounded()))) events/s \
    against \(Format.grouped(Int((1e9 / rows[7].sample.median).rounded()))) bare calls/s at the same concurrency.
    (every call and outcome checked; \(Format.fixed(Measurer.nanoseconds(started.duration(to: .now)) / 1e9, digits: 1)) s)
    """)
