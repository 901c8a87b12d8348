// The member names the one-model release replaced (Docs/Migration.md), used as code written before
// it uses them. Each use must be a compile error whose message names the replacement (with a
// fix-it where the replacement is a plain rename), not "has no member". (Old top-level type names
// are not declared at all: the compiler cannot find them, and Migration.md names each
// replacement; keeping them would double the module's top-level names.)
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: 'CapturePhase' is unavailable: the capture pass is a Bool: 'EventSystem(runsCapturePhase: true)', read 'runsCapturePhase'
// expect: error: 'init(tracer:deadLetters:postingLimit:capturePhase:wrappers:forwardingLimit:)' is unavailable: 'capturePhase: .enabled' is now 'runsCapturePhase: true' and 'wrappers:' is now 'middleware:'
// expect: error: 'init(tracer:deadLetters:postingLimit:runsCapturePhase:wrappers:forwardingLimit:)' has been renamed to 'init(tracer:deadLetters:postingLimit:runsCapturePhase:middleware:forwardingLimit:)'
// expect: error: 'wrappers' has been renamed to 'middleware'
// expect: error: 'capturePhase' is unavailable: read 'runsCapturePhase' (a Bool)
// expect: error: 'wrap' has been renamed to 'use(_:)'
// expect: error: 'delegate(to:)' has been renamed to 'proxy(_:)'
// expect: error: 'removeWrappers()' has been renamed to 'removeMiddleware()'
// expect: error: 'removeDelegate()' has been renamed to 'removeProxy()'
// expect: error: 'wrapperCount' has been renamed to 'middlewareCount'
// expect: error: 'handlesOneEventAtATime' has been renamed to 'handlingLock'

import ResponderChain

actor Order: Responder {
    var next: (any Responder)? { nil }
    let details = Details()

    static let strategies = Strategies<Order> {
        $0.wrap { order, event, context, next in try await next(&context) }
        $0.delegate { $0.details }
    }
}

actor Details: Responder {
    var next: (any Responder)? { nil }
}

func oldNestedType() {
    let _: EventSystem.CapturePhase? = nil
}

func oldSystem() {
    _ = EventSystem(capturePhase: .enabled)
    let system = EventSystem(wrappers: [])
    _ = system.wrappers
    _ = system.capturePhase
}

func oldTable(_ strategies: inout Strategies<Order>) {
    strategies.removeWrappers()
    strategies.removeDelegate()
    _ = strategies.wrapperCount
}

func oldFlag(_ order: Order) {
    let _: Bool = order.handlesOneEventAtATime
}
