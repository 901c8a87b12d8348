// The backend process of the two-process test (`TwoProcessTests`): a small chain (``Desk`` →
// ``Stock``) exposed as the entry `"orders"` by a `RemoteChainServer` on 127.0.0.1.
//
//   remote-chain-test-server [--port N] [--exit-with-stdin] [--send-to PORT] [--name NAME]
//                            [--forward-to PORT]
//
// `--port 0` (the default) lets the system choose the port. Once the server listens, the process
// writes one line, `listening <port>`, to standard output, then one line `parked <sku>` for each
// order it parks. With `--send-to PORT` it is also a caller: it sends one order, `slow-caller`,
// through a link to the entry `"orders"` of the server on 127.0.0.1:PORT, and writes `sending`
// (a test kills it while that send is under way). With `--name NAME` every order it handles
// comes back with NAME under `HandledBy` (a test over several backends tells them apart by it).
// With `--forward-to PORT` it is a middle process instead: its entry `"orders"` is a link to the
// entry `"orders"` of the server on 127.0.0.1:PORT (its registry checked before it listens), so
// that every event it receives continues there (a test of three processes).
// It serves until it is killed; with `--exit-with-stdin`, also until its standard input ends (the test that launched it, holding the pipe's other end, has gone), so that it
// never outlives a crashed test.
import Foundation
import ResponderChain
import RemoteOrders
import ResponderChainGRPC

/// The command line.
struct Options {
    /// The port to listen on; 0 lets the system choose.
    var port = 0
    /// Whether the process ends when its standard input does.
    var exitWithStandardInput = false
    var sendTo: Int?
    /// What the stock writes under `HandledBy`, if anything.
    var name: String?
    /// The port of the server every event is forwarded to, for a middle process.
    var forwardTo: Int?

    init(_ arguments: some Sequence<String>) {
        var arguments = arguments.makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--port":
                guard let value = arguments.next().flatMap(Int.init), (0...65_535).contains(value) else {
                    Self.usage("--port needs a number from 0 to 65535")
                }
                port = value
            case "--exit-with-stdin":
                exitWithStandardInput = true
            case "--send-to":
                guard let value = arguments.next().flatMap(Int.init), (1...65_535).contains(value) else {
                    Self.usage("--send-to needs a port from 1 to 65535")
                }
                sendTo = value
            case "--forward-to":
                guard let value = arguments.next().flatMap(Int.init), (1...65_535).contains(value) else {
                    Self.usage("--forward-to needs a port from 1 to 65535")
                }
                forwardTo = value
            case "--name":
                guard let value = arguments.next(), !value.isEmpty else { Self.usage("--name needs a name") }
                name = value
            default:
                Self.usage("unknown argument \(argument)")
            }
        }
    }

    private static func usage(_ problem: String) -> Never {
        FileHandle.standardError.write(
            Data(
                "remote-chain-test-server: \(problem)\nusage: remote-chain-test-server [--port N] [--exit-with-stdin] [--send-to PORT] [--name NAME] [--forward-to PORT]\n"
                    .utf8))
        exit(2)
    }
}

let options = Options(CommandLine.arguments.dropFirst())
let system = EventSystem()
let stock = Stock(name: options.name, system: system)
let desk = Desk(next: stock, system: system)  // held here: entries hold theirs weakly
// A middle process's link onward, and the transport it goes over.
let onward = try options.forwardTo.map { port in
    let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port, system: system)
    let link = RemoteLink(
        entry: "orders", transport: transport, registry: ordersRegistry(), label: "onward", system: system)
    return (transport: transport, link: link)
}
let entry: any Responder = onward?.link ?? desk
let server = RemoteChainServer(
    entries: RemoteEntries(["orders": entry], registry: ordersRegistry(), system: system), host: "127.0.0.1",
    port: options.port)

if options.exitWithStandardInput {
    Thread.detachNewThread {
        _ = FileHandle.standardInput.readDataToEndOfFile()
        exit(0)
    }
}

try await withThrowingDiscardingTaskGroup { group in
    if let onward {
        group.addTask { try await onward.transport.run() }
        try await onward.link.checkRegistry()
    }
    group.addTask { try await server.run() }
    say("listening \(try await server.listeningPort)")
    if let port = options.sendTo {
        let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port, system: system)
        group.addTask { try await transport.run() }
        let link = RemoteLink(
            entry: "orders", transport: transport, registry: ordersRegistry(), label: "caller")
        let caller = Relay(entry: link, label: "caller", system: system)
        say("sending")
        let outcome = await caller.send(PlaceOrder(sku: "slow-caller"))
        say("sent \(outcome)")
        withExtendedLifetime(link) {}
    }
}
