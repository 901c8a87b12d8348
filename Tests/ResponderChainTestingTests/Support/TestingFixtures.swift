import ResponderChain
import ResponderChainTesting
/// The event the testing-helper suites send.
struct Signal: Event {}

/// What a failing ``Probe`` throws.
struct Failure: Error, Equatable {}

/// The testing-helper suites' responder: the kit's own scripted responder.
typealias Probe = ScriptedResponder

extension ScriptedResponder.Script {
    /// Throws ``Failure``.
    static var fail: Self { .fail(Failure()) }
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
                Signal(), options: SendOptions(deadline: EventSystem.default.now - .seconds(1)))
        }
        if kind == .failed {
            return await Probe("leaf", .fail).send(Signal())
        }
        return nil
    }
}
