// The window layer's own gesture clock, replaced by the clock of the window's event system
// (Docs/Migration.md), used as code written before it uses it. Each use must be a compile error
// whose message says what to use instead.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderUI.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: 'ManualGestureClock' is unavailable: use ManualClock (ResponderChainTesting): Application(system: EventSystem(clock: clock)), then 'await clock.advance(by:)'
// expect: error: 'gestureClock' is unavailable: gesture recognizers read the clock of the window's event system: give the application EventSystem(clock:), a ManualClock in tests
// expect: error: 'GestureClock' is unavailable: gesture recognizers read the clock of the window's event system: give the application EventSystem(clock:), a ManualClock in tests
// expect: error: 'ContinuousGestureClock' is unavailable: the default gesture clock is the event system's default clock: EventSystem() runs on ContinuousClock
// expect: error: 'GestureTimer' is unavailable: a recognizer's timers are set with schedule(after:_:) on its window's event system and cancelled when its attempt ends

import ResponderUI

@MainActor
func oldManualClock(_ window: Window) {
    let clock = ManualGestureClock()
    window.gestureClock = clock
}

@MainActor
func oldDefaultClock() -> any GestureClock {
    ContinuousGestureClock()
}

@MainActor
func oldTimer(_ timer: GestureTimer) {}
