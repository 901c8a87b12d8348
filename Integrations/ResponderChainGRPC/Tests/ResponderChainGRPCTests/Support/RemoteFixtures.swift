import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Synchronization

/// An event that is not registered.
struct LocalOnly: Event {}

/// Information kept in the front process.
enum FrontNote: InfoKey { typealias Value = String }
/// Information the backend adds but does not register.
enum BackendScratch: InfoKey { typealias Value = String }

/// What a station does with a ``PlaceOrder``.
enum Move: Sendable {
    case pass
    case handle
    /// Handles it and lets it go on.
    case keep
    case reserve(Int)
    case scribble
    case fail
    case park(Gate)
    /// Handles it, an order whose sku starts with `slow` once the gate opens.
    case handleSlowAfter(Gate)
}

/// An error a backend handler throws.
struct OutOfStock: Error, CustomStringConvertible {
    var description: String { "out of stock" }
}

/// A responder of either side: it records what it saw and does its move.
actor Station: Responder {
    nonisolated let label: String
    nonisolated let eventSystem: EventSystem
    nonisolated let root: Bool
    private let move: Move
    private var parent: (any Responder)?
    private(set) var seen: [String] = []

    init(_ label: String, _ move: Move, next: (any Responder)? = nil, root: Bool = false, system: EventSystem)
    {
        self.label = label
        self.move = move
        self.parent = next
        self.root = root
        self.eventSystem = system
    }

    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { root }
    func link(to next: (any Responder)?) { parent = next }

    static let strategies = Strategies<Station> {
        $0.on(PlaceOrder.self) { station, order, context in
            station.seen.append("\(order.sku) customer=\(context.info[CustomerID.self] ?? "-")")
            switch station.move {
            case .pass: return .pass
            case .handle: return .handled
            case .keep: return .handledAndContinue
            case .reserve(let number):
                context.info[Reservation.self] = number
                return .handledAndContinue
            case .scribble:
                context.info[BackendScratch.self] = "x"
                return .pass
            case .fail: throw OutOfStock()
            case .park(let gate):
                try await gate.pass()
                return .pass
            case .handleSlowAfter(let gate):
                if order.sku.hasPrefix("slow") { try await gate.pass() }
                return .handled
            }
        }
    }
}

/// A front chain `f0 → f1 → link` and a back chain `b0 → b1 → b2 (root)` in two systems, the
/// link reaching the back through an ``InProcessTransport``.
struct SplitChain {
    let frontLetters = DeadLetterRecorder()
    let backLetters = DeadLetterRecorder()
    let front: EventSystem
    let back: EventSystem
    let f0: Station
    let f1: Station
    let link: RemoteLink
    let b: [Station]

    init(
        back moves: [Move] = [.pass, .handle, .pass], frontMove: Move = .pass,
        postingLimit: EventSystem.PostingLimit = .default,
        registry: RemoteRegistry = ordersRegistry(), backRegistry: RemoteRegistry = ordersRegistry(),
        entry: String = "orders", transport: ((RemoteEntries) -> any RemoteTransport)? = nil
    ) {
        front = EventSystem(deadLetters: frontLetters.sink)
        back = EventSystem(deadLetters: backLetters.sink, postingLimit: postingLimit)
        var stations: [Station] = []
        var next: (any Responder)?
        for (index, move) in moves.enumerated().reversed() {
            let station = Station("b\(index)", move, next: next, root: index == moves.count - 1, system: back)
            stations.insert(station, at: 0)
            next = station
        }
        b = stations
        let entries = RemoteEntries(["orders": stations[0]], registry: backRegistry)
        link = RemoteLink(
            entry: entry, transport: transport?(entries) ?? InProcessTransport(entries, peer: "front"),
            registry: registry, label: "link", system: front)
        f1 = Station("f1", frontMove, next: link, system: front)
        f0 = Station("f0", .pass, next: f1, system: front)
    }
}

/// A transport that fails every call with `error`, counting the calls.
final class FailingTransport: RemoteTransport {
    let error: any Error
    let calls = Atomic<Int>(0)

    init(_ error: any Error) { self.error = error }

    func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        calls.add(1, ordering: .relaxed)
        throw error
    }

    func registryNames() async throws -> RemoteRegistryNames { throw error }
}
