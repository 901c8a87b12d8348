import ResponderChain
import ResponderChainTesting
import Testing

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

/// Runs `wait`, which must throw ``WaitTimedOut`` once `limit` has passed, and expects it to
/// throw at its limit: not before it, and not at some later one. Returns the error, `nil` (and an
/// issue) when `wait` did not throw it.
///
/// ```swift
/// let error = await expectTimedOut(at: .milliseconds(50)) {
///     try await gate.pass(within: .milliseconds(50))
/// }
/// ```
func expectTimedOut(
    at limit: Duration, sourceLocation: SourceLocation = #_sourceLocation, _ wait: () async throws -> Void
) async -> WaitTimedOut? {
    let clock = ContinuousClock()
    let start = clock.now
    let error = await #expect(throws: WaitTimedOut.self, sourceLocation: sourceLocation) { try await wait() }

    #expect(clock.now - start >= limit, sourceLocation: sourceLocation)
    // At its limit, not at some later one.
    #expect(clock.now - start < .seconds(10), sourceLocation: sourceLocation)
    return error
}
