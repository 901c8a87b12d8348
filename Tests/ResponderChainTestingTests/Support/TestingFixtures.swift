import ResponderChain
import ResponderChainTesting
/// The event the testing-helper suites send.
struct Signal: Event {}

/// What a failing ``Probe`` throws.
struct Failure: Error, Equatable {}

/// An actor responder with a fixed decision for ``Signal``.
actor Probe: Responder {
    enum Decision: Sendable { case handle, pass, fail }

    nonisolated let name: String
    nonisolated let root: Bool
    nonisolated let eventSystem: EventSystem
    let decision: Decision
    private var parent: (any Responder)?

    init(
        _ name: String, _ decision: Decision = .pass, parent: (any Responder)? = nil, root: Bool = false,
        system: EventSystem = .default
    ) {
        self.name = name
        self.decision = decision
        self.parent = parent
        self.root = root
        self.eventSystem = system
    }

    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { root }
    nonisolated var label: String { name }

    func link(to parent: (any Responder)?) { self.parent = parent }

    static let strategies = Strategies<Probe> {
        $0.on(Signal.self) { probe, _, _ in
            switch probe.decision {
            case .handle: return .handled
            case .pass: return .pass
            case .fail: throw Failure()
            }
        }
    }
}

/// Things that happened, in order, across tasks.
final class Timeline: Sendable {
    private let entries = Locked<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var entriesSoFar: [String] { entries.withLock { $0 } }
}

/// Sends that end in each kind of outcome. (No `switch` over the kind: `Outcome` may gain cases.)
enum OutcomeMaker {
    static func outcome(of kind: Outcome.Kind) async -> Outcome? {
        if kind == .handled {
            return await Probe("leaf", .handle).send(Signal())
        }
        if kind == .unhandled {
            return await Probe("root", .pass, root: true).send(Signal())
        }
        if kind == .interrupted {
            return await Probe("detached", .pass).send(Signal())
        }
        if kind == .cycleDetected {
            let loop = Probe("loop", .pass)
            await loop.link(to: loop)
            let outcome = await loop.send(Signal())
            await loop.link(to: nil)
            return outcome
        }
        if kind == .cancelled {
            let probe = Probe("leaf", .handle)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await probe.send(Signal())
            }
            return await task.value
        }
        if kind == .timedOut {
            return await Probe("leaf", .handle).send(
                Signal(), options: SendOptions(deadline: .now - .seconds(1)))
        }
        if kind == .failed {
            return await Probe("leaf", .fail).send(Signal())
        }
        return nil
    }
}
