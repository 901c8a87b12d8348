// The window layer's names the one-model release replaced (Docs/Migration.md), used as code
// written before it uses them. Each use must be a compile error whose message names the
// replacement.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderUI.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: 'wrap' has been renamed to 'use(_:)'
// expect: error: 'delegate(to:)' has been renamed to 'proxy(_:)'
// expect: error: 'removeDelegate()' has been renamed to 'removeProxy()'
// expect: error: 'init(delegate:router:label:)' has been renamed to 'init(delegate:system:label:)'

import ResponderUI

final class Cell: View {}

@MainActor
func oldRegistration(_ cell: Cell) {
    cell.handlers.wrap { cell, event, context, next in try await next(&context) }
    cell.handlers.delegate { _ in nil }
    cell.handlers.removeDelegate()
}

@MainActor
func oldApplication() -> Application {
    Application(router: EventSystem())
}
