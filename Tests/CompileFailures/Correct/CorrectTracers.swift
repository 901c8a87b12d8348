// The control for .ci/expect-compile-failures: correct conformers, which must typecheck with no
// error and no warning (in Swift 6 mode, with and without NonisolatedNonsendingByDefault), so that
// the check cannot pass by failing every file for some other reason (a missing module, a renamed
// type).

import ResponderChain

/// A scope that captures a request identifier in the sender's task and restores it around each
/// hop.
struct RequestScope: ScopingTracer {
    @TaskLocal static var requestID: String?

    func captureContext() -> String? { Self.requestID }

    nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<String>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await Self.$requestID.withValue(scope.context) { try await body() }
    }

    func record(_ event: TraceEvent) {}
}

/// A scope that captures nothing: `captureContext()` comes from the default for `Never`.
struct HopNumberScope: ScopingTracer {
    @TaskLocal static var hop: Int?

    nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<Never>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await Self.$hop.withValue(scope.number) { try await body() }
    }

    func record(_ event: TraceEvent) {}
}

/// A plain tracer: point events only.
struct PointEvents: Tracer {
    func record(_ event: TraceEvent) {}
}

/// All three install where a tracer goes.
let tracers: [any Tracer] = [RequestScope(), HopNumberScope(), PointEvents()]
let options = SendOptions(tracer: RequestScope())
