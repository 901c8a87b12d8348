@testable import ResponderChain
import ResponderChainTesting
/// Test doubles for the concurrency suites, kept in one namespace so they never clash with others.
enum ConcurrencyFixtures {
    /// The `number`th event of sender `sender`.
    struct Numbered: Event, Equatable {
        let sender: Int
        let number: Int
    }

    struct Boom: Error, Equatable {}

    /// What a node's handler does with a ``Numbered`` event.
    enum Behavior: Sendable {
        case pass
        case handle
        case handleAndContinue
        /// Suspends (`Task.yield`) at points chosen by a seeded generator, then passes.
        case suspendRandomly(seed: UInt64)
        /// Parks on the gate until it opens (or the task is cancelled), then handles.
        case park(Gate)
        /// Parks on the gate, ignoring cancellation, then handles and lets the event continue.
        case parkIgnoringCancellation(Gate)
        /// For event 0: sends event 1 from this node and waits for it, then handles.
        case resend
        /// For event 0: posts event 1 from this node (keeping its ticket), then handles.
        case repost
    }

    /// A responder that records every event it sees, in order, and notices duplicates.
    actor Node: Responder {
        let name: String
        let root: Bool
        nonisolated let handlingLock: HandlingLock?
        nonisolated let eventSystem: EventSystem
        private var behavior: Behavior
        private var parent: (any Responder)?
        private var random: SplitMix
        private var seenIDs: Set<EventID> = []
        private(set) var seen: [Numbered] = []
        private(set) var duplicates = 0
        private(set) var nestedOutcomes: [Outcome] = []
        private(set) var innerTickets: [Ticket] = []
        private(set) var sawTaskCancelled = false
        private(set) var sawContextCancelled = false
        /// The order handlers started and ended, e.g. `["start 0", "end 0", "start 1", …]`.
        private(set) var log: [String] = []

        init(
            _ name: String, _ behavior: Behavior = .pass, parent: (any Responder)? = nil,
            root: Bool = false, exclusive: Bool = false, system: EventSystem = .default
        ) {
            self.name = name
            self.behavior = behavior
            self.parent = parent
            self.root = root
            self.handlingLock = exclusive ? HandlingLock() : nil
            self.eventSystem = system
            if case .suspendRandomly(let seed) = behavior {
                random = SplitMix(seed: seed)
            } else {
                random = SplitMix(seed: 0)
            }
        }

        var next: (any Responder)? { parent }
        nonisolated var isRoot: Bool { root }
        nonisolated var label: String { name }

        func link(to parent: (any Responder)?) { self.parent = parent }

        static let strategies = Strategies<Node> {
            $0.on(Numbered.self) { node, event, context in
                try await node.receive(event, context: &context)
            }
        }

        private func receive(_ event: Numbered, context: inout EventContext) async throws -> Disposition {
            if !seenIDs.insert(context.eventID).inserted { duplicates += 1 }
            seen.append(event)
            log.append("start \(event.number)")
            defer { log.append("end \(event.number)") }
            switch behavior {
            case .pass:
                return .pass
            case .handle:
                return .handled
            case .handleAndContinue:
                return .handledAndContinue
            case .suspendRandomly:
                for _ in 0..<Int(random.next() % 3) { await Task.yield() }
                return .pass
            case .park(let gate):
                do {
                    try await gate.pass()
                } catch {
                    sawTaskCancelled = Task.isCancelled
                    sawContextCancelled = context.isCancelled
                    throw error
                }
                return .handled
            case .parkIgnoringCancellation(let gate):
                try? await gate.pass()
                sawTaskCancelled = Task.isCancelled
                sawContextCancelled = context.isCancelled
                return .handledAndContinue
            case .resend:
                if event.number == 0 {
                    nestedOutcomes.append(await send(Numbered(sender: event.sender, number: 1)))
                }
                return .handled
            case .repost:
                if event.number == 0 {
                    innerTickets.append(await post(Numbered(sender: event.sender, number: 1)))
                }
                return .handled
            }
        }
    }

    /// A chain of `count` passing nodes below `top`, returned leaf first.
    static func chain(_ count: Int, below top: Node, behavior: (Int) -> Behavior = { _ in .pass }) -> [Node] {
        var nodes: [Node] = []
        var parent: (any Responder)? = top
        for index in (0..<count).reversed() {
            let node = Node("n\(index)", behavior(index), parent: parent, system: top.eventSystem)
            nodes.insert(node, at: 0)
            parent = node
        }
        return nodes
    }

    /// A tracer that only counts finished sends by kind: cheap enough for floods.
    final class OutcomeCounter: Tracer {
        private let counts = Locked<[Outcome.Kind: Int]>([:])

        func record(_ event: TraceEvent) {
            if case .finished(let outcome) = event {
                counts.withLock { $0[outcome.kind, default: 0] += 1 }
            }
        }

        var total: Int { counts.withLock { $0.values.reduce(0, +) } }
        func count(_ kind: Outcome.Kind) -> Int { counts.withLock { $0[kind] ?? 0 } }
    }

    /// A small seeded generator (SplitMix64), so that "random" suspension points are the same on
    /// every run.
    struct SplitMix: Sendable {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Returns once the current task is cancelled: a pass through a gate that never opens, which
    /// only the cancellation ends.
    static func waitForCancellation() async {
        try? await Gate().pass()
    }

}
