// A scope written the way a Swift 6 module writes an async method when nobody mentions isolation:
// neither `withHop` nor its `body` spells `nonisolated(nonsending)`. Before ScopingTracer this
// compiled as an unrelated overload next to a default `withHop`, and was never called. It must be
// a compile error.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: type 'ScopeWithoutNonsending' does not conform to protocol 'ScopingTracer'
// expect: note: candidate has non-matching type
// expect: note: protocol requires function 'withHop' with type

import ResponderChain

struct ScopeWithoutNonsending: ScopingTracer {
    @TaskLocal static var requestID: String?

    func captureContext() -> String? { Self.requestID }

    func withHop(
        _ scope: Hop.Scope<String>,
        _ body: () async throws -> Disposition
    ) async throws -> Disposition {
        try await Self.$requestID.withValue(scope.context) { try await body() }
    }

    func record(_ event: TraceEvent) {}
}
