// Deadlines written before the one clock, as instants of the process's clock. A deadline is now an
// instant of the event system's clock (Docs/Migration.md): each must be a compile error whose
// message says to read the system's (`system.now`), not a type mismatch.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: 'now' is unavailable: an instant belongs to a clock: read the event system's (system.now + .seconds(2)), or give SendOptions a timeout
// expect: error: 'now' is unavailable: an instant belongs to a clock: read the event system's (system.now + .seconds(2)), or give SendOptions a timeout
// expect: error: 'init(start:deadline:timeout:info:tracer:deadLetters:)' is unavailable: a deadline is an instant of the event system's clock: SendOptions(deadline: system.now + .seconds(2)), or SendOptions(timeout: .seconds(2))

import ResponderChain

func deadlineFromTheProcessClock() {
    _ = SendOptions(deadline: .now + .seconds(1))
}

func deadlineSetToNow() {
    var options = SendOptions()
    options.deadline = .now
    _ = options
}

func deadlineFromContinuousClock() {
    _ = SendOptions(deadline: ContinuousClock.now + .seconds(1))
}
