import ResponderChain
import ResponderChainTesting

// Test doubles of the interception suites (Tests/ResponderChainTests/Interception/).

/// An event with a number, to follow many posts of one sender.
struct Numbered: Event { let number: Int }

/// A system that runs the capture pass.
func capturingSystem(tracer: (any Tracer)? = nil, middleware: [any HopMiddleware] = []) -> EventSystem {
    EventSystem(tracer: tracer, runsCapturePhase: true, middleware: middleware)
}

/// An actor responder with a catch-all in each phase it is given a reaction for. Each handler
/// writes `name.phase` to the journal (`name.phase#n` for a ``Numbered``, and `[tag]` when the
/// event carries a ``Tag``), then reacts.
actor Node: Responder {
    nonisolated let name: String
    nonisolated let root: Bool
    nonisolated let eventSystem: EventSystem
    nonisolated let strategies: Strategies<Node>
    private var parent: (any Responder)?

    init(
        _ name: String, capture: Reaction? = nil, bubble: Reaction? = .pass, parent: (any Responder)? = nil,
        root: Bool = false, system: EventSystem, journal: Journal
    ) {
        self.name = name
        self.root = root
        self.eventSystem = system
        self.parent = parent
        self.strategies = Strategies { table in
            for (phase, reaction) in [(EventContext.Phase.capture, capture), (.bubble, bubble)] {
                guard let reaction else { continue }
                table.onAnyEvent(phase: phase) { node, event, context in
                    journal.append(Node.entry(node.name, event: event, context: context))
                    return try await perform(reaction, by: node.name, context: &context)
                }
            }
        }
    }

    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { root }
    nonisolated var label: String { name }

    func link(to parent: (any Responder)?) { self.parent = parent }

    static func entry(_ name: String, event: any Event, context: EventContext) -> String {
        let number = (event as? Numbered).map { "#\($0.number)" } ?? ""
        let tag = context.info[Tag.self].map { "[\($0)]" } ?? ""
        return "\(name).\(context.phase)\(number)\(tag)"
    }
}

/// What one responder of a ``makeNodes(_:system:journal:)`` chain does in each phase (`nil`:
/// no handler in that phase).
struct NodeSpec: Sendable {
    var capture: Reaction?
    var bubble: Reaction?

    static func both(_ capture: Reaction, _ bubble: Reaction) -> NodeSpec {
        NodeSpec(capture: capture, bubble: bubble)
    }
    static func capture(_ reaction: Reaction) -> NodeSpec { NodeSpec(capture: reaction, bubble: nil) }
    static func bubble(_ reaction: Reaction) -> NodeSpec { NodeSpec(capture: nil, bubble: reaction) }
}

/// A chain `n0` (the sender, first in the result) … `nK` (the top, a root unless `topIsRoot` is
/// `false`).
func makeNodes(
    _ specs: [NodeSpec], topIsRoot: Bool = true, system: EventSystem, journal: Journal
) -> [Node] {
    var nodes: [Node] = []
    var parent: (any Responder)?
    for (index, spec) in specs.enumerated().reversed() {
        let node = Node(
            "n\(index)", capture: spec.capture, bubble: spec.bubble, parent: parent,
            root: topIsRoot && index == specs.count - 1, system: system, journal: journal)
        nodes.insert(node, at: 0)
        parent = node
    }
    return nodes
}

/// A chain made by ``makeNodes(_:topIsRoot:system:journal:)`` whose nodes write to a new
/// journal, and that journal; the system runs the capture pass unless another is given.
func journaledNodes(
    _ specs: [NodeSpec], topIsRoot: Bool = true, system: EventSystem = capturingSystem()
) -> (journal: Journal, nodes: [Node]) {
    let journal = Journal()
    return (journal, makeNodes(specs, topIsRoot: topIsRoot, system: system, journal: journal))
}

/// A system wrapper that writes `label>` before the rest of the hop and `<label` after it.
struct JournalingWrapper: HopMiddleware {
    let label: String
    let journal: Journal

    func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: HopMiddleware.Next
    ) async throws -> Disposition {
        journal.append("\(label)>\(responder.label).\(context.phase)")
        let disposition = try await next(&context)
        journal.append("<\(label)")
        return disposition
    }
}
