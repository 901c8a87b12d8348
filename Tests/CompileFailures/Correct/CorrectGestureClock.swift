// The control for GestureClockInWindowLayer.swift: gestures on the clock of the window's event
// system, a manual clock in tests, which must typecheck with no error and no warning.

import ResponderChainTesting
import ResponderUI

@MainActor
func manualClock(_ window: Window) async {
    let clock = ManualClock()
    let application = Application(system: EventSystem(clock: clock))
    application.addWindow(window)
    await window.dispatch(.began, at: Point(x: 10, y: 10))
    await clock.advance(by: .milliseconds(500))
}

@MainActor
func defaultClock() -> Application {
    Application(system: EventSystem())
}
