// A scope whose method spells `nonisolated(nonsending)` but whose `body` parameter does not: in a
// Swift 6 module that `body` is a `@concurrent` function type, not the one the requirement passes.
// It must be a compile error, not an unrelated method that no send ever calls.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: type 'BodyWithoutNonsending' does not conform to protocol 'ScopingTracer'
// expect: note: candidate has non-matching type
// expect: note: protocol requires function 'withHop' with type

import ResponderChain

struct BodyWithoutNonsending: ScopingTracer {
    @TaskLocal static var hop: Int?

    nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<Never>,
        _ body: () async throws -> Disposition
    ) async throws -> Disposition {
        try await Self.$hop.withValue(scope.number) { try await body() }
    }

    func record(_ event: TraceEvent) {}
}
