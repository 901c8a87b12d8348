import ResponderChain
import ResponderChainTesting

struct Probe: Event {}
struct Boom: Error {}

/// A responder with a name (its label) and a fixed reaction to ``Probe``.
actor Station: Responder {
    enum Behaviour: Sendable {
        case pass
        case handle
        case fail
        /// Parks on the gate until it opens, then handles.
        case park(Gate)
    }

    let name: String
    let behaviour: Behaviour
    let parent: Station?
    let root: Bool
    /// Whether `next` is the station itself (a one-responder cycle).
    let loops: Bool
    nonisolated let eventSystem: EventSystem

    init(
        _ name: String, _ behaviour: Behaviour = .pass, parent: Station? = nil, root: Bool = false,
        loops: Bool = false, system: EventSystem
    ) {
        self.name = name
        self.behaviour = behaviour
        self.parent = parent
        self.root = root
        self.loops = loops
        self.eventSystem = system
    }

    var next: (any Responder)? { loops ? self : parent }
    nonisolated var isRoot: Bool { root }
    nonisolated var label: String { name }

    static let strategies = Strategies<Station> {
        $0.on(Probe.self) { station, _, _ in try await station.react() }
    }

    private func react() async throws -> Disposition {
        switch behaviour {
        case .pass: return .pass
        case .handle: return .handled
        case .fail: throw Boom()
        case .park(let gate):
            try await gate.pass()
            return .handled
        }
    }
}

/// Returns once the current task is cancelled: a pass through a gate that never opens, which
/// only the cancellation ends.
func waitForCancellation() async {
    try? await Gate().pass()
}
