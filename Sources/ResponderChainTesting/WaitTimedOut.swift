/// The error every wait of this module throws when what it waits for does not come within its
/// limit: ``Gate/pass(within:)``, ``Gate/waitForArrivals(_:within:)``,
/// ``DeadLetterRecorder/waitForLetters(_:within:)`` and the `waitUntil` functions. It says what
/// was awaited and what had come by then, so a test fails with a reason instead of hanging.
public struct WaitTimedOut: Error, Equatable, CustomStringConvertible {
    /// What was awaited, in words: `3 dead letters`, `the gate to open`, or the condition a
    /// `waitUntil` caller described.
    public let condition: String
    /// How long the wait lasted.
    public let limit: Duration
    /// What had come when the limit passed, in words: `1 arrived: unhandled …`.
    public let arrived: String

    /// Whether ``condition`` is a state a `waitUntil` waited for, rather than something to come.
    let isState: Bool

    /// A wait for `condition` to come that gave up after `limit`, when `arrived` had come.
    init(condition: String, limit: Duration, arrived: String) {
        self.condition = condition
        self.limit = limit
        self.arrived = arrived
        self.isState = false
    }

    /// A wait until the state `condition` held that gave up after `limit`.
    init(until condition: String, limit: Duration, arrived: String) {
        self.condition = condition
        self.limit = limit
        self.arrived = arrived
        self.isState = true
    }

    /// For example: `waited 10.0 seconds for 3 dead letters; 1 arrived: Ping unhandled …`, or
    /// `waited 30.0 seconds until "the shutdown has begun"; it did not hold`.
    public var description: String {
        isState
            ? "waited \(limit) until \"\(condition)\"; \(arrived)"
            : "waited \(limit) for \(condition); \(arrived)"
    }
}
