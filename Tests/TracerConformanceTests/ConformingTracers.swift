// This module is built with `NonisolatedNonsendingByDefault` (see Package.swift): an async
// function or closure type written without isolation runs on its caller's actor here. These
// conformers are written the way a user of that mode writes them, with no isolation spelled, and
// must still satisfy `ScopingTracer`, whose `withHop` spells `nonisolated(nonsending)`. (A scope
// spelled wrongly for the other mode does not compile: see Tests/CompileFailures.)

import ResponderChain
import ResponderChainTesting

/// A request identifier bound in the sender's task and restored around each hop.
enum ConformanceContext {
    @TaskLocal static var requestID: String?
    @TaskLocal static var span: String?
}

/// A scoping conformer written in this module's default mode: nothing spelled.
struct SpanningTracer: ScopingTracer {
    let recorder = RecordingTracer()

    func captureContext() -> String? { ConformanceContext.requestID }

    func withHop(
        _ scope: Hop.Scope<String>,
        _ body: () async throws -> Disposition
    ) async throws -> Disposition {
        try await ConformanceContext.$requestID.withValue(scope.context) {
            try await ConformanceContext.$span.withValue("span \(scope.number) \(scope.responder)") {
                try await body()
            }
        }
    }

    func record(_ event: TraceEvent) { recorder.record(event) }
}

/// A scoping conformer that spells the isolation explicitly, as a module in the other mode must,
/// and captures nothing (`Hop.Scope<Never>`: `captureContext()` comes from the default).
struct ExplicitTracer: ScopingTracer {
    let recorder = RecordingTracer()

    nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<Never>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await ConformanceContext.$span.withValue("explicit \(scope.number)") {
            try await body()
        }
    }

    func record(_ event: TraceEvent) { recorder.record(event) }
}

/// A plain tracer: it only records, and its hops run with no scope.
struct PointEventsOnlyTracer: Tracer {
    let recorder = RecordingTracer()

    func record(_ event: TraceEvent) { recorder.record(event) }
}

struct Probe: Event {}

/// What a handler saw.
struct Seen: Sendable, Equatable {
    let span: String?
    let requestID: String?
}

actor ProbeResponder: Responder {
    let name: String
    let parent: ProbeResponder?
    nonisolated let eventSystem: EventSystem
    private(set) var seen: [Seen] = []

    init(_ name: String, parent: ProbeResponder? = nil, system: EventSystem = .default) {
        self.name = name
        self.parent = parent
        self.eventSystem = system
    }

    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { parent == nil }
    nonisolated var label: String { name }

    static let strategies = Strategies<ProbeResponder> {
        $0.on(Probe.self) { responder, _, _ in
            responder.seen.append(
                Seen(span: ConformanceContext.span, requestID: ConformanceContext.requestID))
            return responder.parent == nil ? .handled : .pass
        }
    }
}

@MainActor
final class ProbeScreen: MainActorResponder {
    let parent: any Responder
    private(set) var seen: [Seen] = []

    init(parent: any Responder) { self.parent = parent }

    var next: (any Responder)? { parent }

    nonisolated static let strategies = Strategies<ProbeScreen> {
        $0.on(Probe.self) { screen, _, _ in
            screen.seen.append(Seen(span: ConformanceContext.span, requestID: ConformanceContext.requestID))
            return .pass
        }
    }
}
