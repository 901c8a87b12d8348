// The names the one-model release replaced (Docs/Migration.md), used as code written before it
// uses them. Each use must be a compile error whose message names the replacement (with a fix-it
// where the replacement is a plain rename), not "cannot find in scope".
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: 'HopWrapper' has been renamed to 'HopMiddleware'
// expect: error: 'HopWrapperNext' has been renamed to 'HopMiddleware.Next'
// expect: error: 'Forwarded' is unavailable: forwarding is a disposition: 'return .forwarded(await relay.send(event))' instead of throwing
// expect: error: 'PayloadTypeMismatch' is unavailable: the library throws 'ResponderChainError'; match 'code == .payloadTypeMismatch'
// expect: error: 'ProxyCycle' is unavailable: the library throws 'ResponderChainError'; match 'code == .proxyCycle' (its 'responder' is the proxy)
// expect: error: 'CapturePhaseDisabled' is unavailable: the library throws 'ResponderChainError'; match 'code == .capturePhaseDisabled'
// expect: error: 'TracerViolation' is unavailable: the library throws 'ResponderChainError'; match 'code == .tracerSkippedHandlers' or 'code == .tracerRanHandlersAgain'
// expect: error: 'EventPhase' has been renamed to 'EventContext.Phase'
// expect: error: 'DeadLetterSink' has been renamed to 'DeadLetter.Sink'
// expect: error: 'HopRecord' has been renamed to 'Hop.Record'
// expect: error: 'HopScope' has been renamed to 'Hop.Scope'
// expect: error: 'HopIsolation' has been renamed to 'Hop.Isolation'
// expect: error: 'AddedInfo' has been renamed to 'Hop.AddedInfo'
// expect: error: 'TracePrinter' has been renamed to 'PrintingTracer.Printer'
// expect: error: 'EventName' has been renamed to 'NamedEvent.Name'
// expect: error: 'ShutdownReport' has been renamed to 'EventSystem.ShutdownReport'
// expect: error: 'PostingLimit' has been renamed to 'EventSystem.PostingLimit'
// expect: error: 'FinishedSend' has been renamed to 'EventSystem.FinishedSend'
// expect: error: 'ObservationBuffering' has been renamed to 'ObservationStream.Buffering'
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
// expect: error: 'EventRouter' is unavailable: 'EventRouter' is now 'EventSystem', and a responder's 'router' is now 'nonisolated var eventSystem: EventSystem'; rename both

import ResponderChain

struct Audit: HopWrapper {
    nonisolated(nonsending) func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext,
        next: HopMiddleware.Next
    ) async throws -> Disposition {
        try await next(&context)
    }
}

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

func oldTypes() {
    let _: HopWrapperNext? = nil
    let _: Forwarded? = nil
    let _: PayloadTypeMismatch? = nil
    let _: ProxyCycle? = nil
    let _: CapturePhaseDisabled? = nil
    let _: TracerViolation? = nil
    let _: EventPhase? = nil
    let _: DeadLetterSink? = nil
    let _: HopRecord? = nil
    let _: HopScope<String>? = nil
    let _: HopIsolation? = nil
    let _: AddedInfo? = nil
    let _: TracePrinter? = nil
    let _: EventName? = nil
    let _: ShutdownReport? = nil
    let _: PostingLimit? = nil
    let _: FinishedSend? = nil
    let _: ObservationBuffering? = nil
    let _: EventSystem.CapturePhase? = nil
    let _: EventRouter? = nil
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
