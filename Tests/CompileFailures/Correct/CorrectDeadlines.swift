// The control for DeadlineFromTheProcessClock.swift: the same deadlines read from the event
// system's clock, and a timeout, which must typecheck with no error and no warning.

import ResponderChain

func deadlineFromTheSystemsClock(_ system: EventSystem) -> [SendOptions] {
    var options = SendOptions()
    options.deadline = system.now
    return [SendOptions(deadline: system.now + .seconds(1)), SendOptions(timeout: .seconds(1)), options]
}
