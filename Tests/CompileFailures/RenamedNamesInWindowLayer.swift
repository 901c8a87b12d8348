// The window layer's names the one-model release replaced (Docs/Migration.md), used as code
// written before it uses them. Each use must be a compile error whose message names the
// replacement.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderUI.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: 'handlers' has been renamed to 'strategies'
// expect: error: 'wrap' has been renamed to 'use(_:)'
// expect: error: 'delegate(to:)' has been renamed to 'proxy(_:)'
// expect: error: 'removeDelegate()' has been renamed to 'removeProxy()'
// expect: error: 'init(delegate:router:label:)' has been renamed to 'init(delegate:system:label:)'
// expect: error: cannot override 'respond' which has been marked unavailable: register handlers in the responder's strategies

import ResponderUI

final class Cell: View {
    override func respond(to event: any Event, context: inout EventContext) async throws -> Disposition {
        .pass
    }
}

@MainActor
func oldRegistration(_ cell: Cell) {
    cell.handlers.on(PointerEvent.self) { _, _, _ in .pass }
    cell.strategies.wrap { cell, event, context, next in try await next(&context) }
    cell.strategies.delegate { _ in nil }
    cell.strategies.removeDelegate()
}

@MainActor
func oldApplication() -> Application {
    Application(router: EventSystem())
}
