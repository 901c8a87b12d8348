// The backend process of the two-process test (`TwoProcessTests`): a small chain (``Desk`` →
// ``Stock``) exposed as the entry `"orders"` by a `RemoteChainServer` on 127.0.0.1.
//
//   remote-chain-test-server [--port N] [--exit-with-stdin] [--send-to PORT] [--name NAME]
//                            [--forward-to PORT] [--schema old|new [--ship-to PORT --count N]]
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
// With `--schema old|new` it is one binary of the rolling-upgrade test: its registry has the
// shipment event of that binary (see `ShipmentSchema`), its stock handles shipments and writes
// `received <n>` at every thousandth (and `out of order <sender> <number>` should one come out
// of its sender's order), and with `--ship-to PORT --count N` it posts N shipments of its own
// version to the entry `"orders"` there, once its link agreed on the wire format, and writes
// `shipped handled=<h> other=<o>` when every one has its outcome.
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
    /// The binary of the rolling-upgrade test this process is, if it is one.
    var schema: ShipmentSchema?
    /// The port to post shipments to, and how many.
    var shipTo: Int?
    var count = 0

    init(_ arguments: some Sequence<String>) {
        var arguments = arguments.makeIterator()
        /// The port after `option`: 1 to 65535 (0 too when `zero` lets the system choose).
        func nextPort(after option: String, zero: Bool = false) -> Int {
            let lowest = zero ? 0 : 1
            guard let value = arguments.next().flatMap(Int.init), (lowest...65_535).contains(value) else {
                Self.usage("\(option) needs a port from \(lowest) to 65535")
            }
            return value
        }
        while let argument = arguments.next() {
            switch argument {
            case "--port": port = nextPort(after: argument, zero: true)
            case "--exit-with-stdin": exitWithStandardInput = true
            case "--send-to": sendTo = nextPort(after: argument)
            case "--forward-to": forwardTo = nextPort(after: argument)
            case "--ship-to": shipTo = nextPort(after: argument)
            case "--schema":
                guard let value = arguments.next().flatMap(ShipmentSchema.init(rawValue:)) else {
                    Self.usage("--schema needs old or new")
                }
                schema = value
            case "--count":
                guard let value = arguments.next().flatMap(Int.init), value >= 0 else {
                    Self.usage("--count needs a count")
                }
                count = value
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
                "remote-chain-test-server: \(problem)\nusage: remote-chain-test-server [--port N] [--exit-with-stdin] [--send-to PORT] [--name NAME] [--forward-to PORT] [--schema old|new [--ship-to PORT --count N]]\n"
                    .utf8))
        exit(2)
    }
}

let options = Options(CommandLine.arguments.dropFirst())
let registry = options.schema.map { ordersRegistry(shipments: $0) } ?? ordersRegistry()
let system = EventSystem()
let stock = Stock(name: options.name, system: system)
let desk = Desk(next: stock, system: system)  // held here: entries hold theirs weakly
// A middle process's link onward, and the transport it goes over.
let onward = try options.forwardTo.map { port in
    let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port, system: system)
    let link = RemoteLink(
        entry: "orders", transport: transport, registry: registry, label: "onward", system: system)
    return (transport: transport, link: link)
}
let entry: any Responder = onward?.link ?? desk
let server = RemoteChainServer(
    entries: RemoteEntries(["orders": entry], registry: registry, system: system), host: "127.0.0.1",
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
    if let port = options.shipTo, let schema = options.schema {
        let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port, system: system)
        group.addTask { try await transport.run() }
        let link = RemoteLink(
            entry: "orders", transport: transport, registry: registry, label: "shipper", system: system)
        // A link the other side cannot read for ends the process saying why (the test reads it).
        do {
            try await link.checkRegistry()
        } catch {
            say("registry check failed: \(error)")
            exit(1)
        }
        let shipper = Relay(entry: link, label: "shipper \(schema)", system: system)
        var tickets: [Ticket] = []
        tickets.reserveCapacity(options.count)
        for number in stride(from: 1, through: options.count, by: 1) {
            let sender = "\(schema)"
            let event: any Event =
                switch schema {
                case .old: ShipmentV1(sender: sender, number: number)
                case .new: Shipment(sender: sender, number: number, grams: number)
                }
            tickets.append(await shipper.post(event))
        }
        var handled = 0
        for ticket in tickets where await ticket.outcome.kind == .handled { handled += 1 }
        say("shipped handled=\(handled) other=\(tickets.count - handled)")
        withExtendedLifetime(link) {}
    }
}
