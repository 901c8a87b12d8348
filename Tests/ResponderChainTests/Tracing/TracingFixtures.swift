import ResponderChain
import ResponderChainTesting
import Synchronization
/// Test doubles for the tracing suites, kept in one namespace so they never clash with others.
enum TracingFixtures {
    struct Ping: Event {}
    struct Boom: Error, Equatable {}

    enum Stamp: InfoKey { typealias Value = String }
    enum Count: InfoKey { typealias Value = Int }

    /// Bound by ``ScopedTracer`` around each hop.
    @TaskLocal static var hopMarker: String?
    /// A request identifier in the sender's task, captured by ``ScopedTracer``.
    @TaskLocal static var requestID: String?

    /// What a station's handler does with a ``Ping``.
    enum Behavior: Sendable {
        case pass
        case handle
        case handleAndContinue
        /// Adds `Stamp` and continues.
        case stamp(String)
        /// Adds `Count` (one more than below) and passes.
        case count
        case fail
        /// Parks on the gate, then handles.
        case park(Gate)
        /// Parks on the gate, then passes.
        case parkThenPass(Gate)
        /// Runs the closure, then passes.
        case perform(@Sendable () -> Void)
    }

    /// What a handler saw.
    struct Sighting: Sendable, Equatable {
        let eventID: EventID
        let hop: Int
        let hopMarker: String?
        let requestID: String?
        /// The scopes of ``NestingTracer``s the handler ran in, outermost first.
        var scopes: [String] = NestingTracer.scopes

        /// What a handler running with `context` sees, here and now.
        init(_ context: EventContext) {
            eventID = context.eventID
            hop = context.hop
            hopMarker = TracingFixtures.hopMarker
            requestID = TracingFixtures.requestID
        }
    }

    /// The tracing suites' actor responder: the kit's scripted responder, handling only
    /// ``Ping`` with a ``Behavior`` and noting a ``Sighting`` (with the task-local values bound
    /// where its handler runs) each time; build one with
    /// ``ScriptedResponder/init(tracing:_:parent:root:system:)``.
    typealias Station = ScriptedResponder

    @MainActor
    final class Screen: MainActorResponder {
        let name: String
        let behavior: Behavior
        var parent: (any Responder)?
        private(set) var sightingsInScope: [Sighting] = []

        init(_ name: String, _ behavior: Behavior = .pass, parent: (any Responder)?) {
            self.name = name
            self.behavior = behavior
            self.parent = parent
        }

        var next: (any Responder)? { parent }
        nonisolated var label: String { "Screen" }

        nonisolated static let strategies = Strategies<Screen> {
            $0.on(Ping.self) { screen, _, context in
                screen.sightingsInScope.append(Sighting(context))
                return try await TracingFixtures.perform(screen.behavior, context: &context)
            }
        }
    }

    /// The script of a ``Station`` that reacts with `behavior`, having noted a ``Sighting``.
    static func script(_ behavior: Behavior) -> ScriptedResponder.Script {
        var steps: [ScriptedResponder.Step] = [.note { _, context in Sighting(context) }]
        switch behavior {
        case .pass: return .init(steps, then: .pass)
        case .handle: return .init(steps, then: .handled)
        case .handleAndContinue: return .init(steps, then: .handledAndContinue)
        case .stamp(let stamp):
            steps.append(.perform { _, context in context.info[Stamp.self] = stamp })
            return .init(steps, then: .handledAndContinue)
        case .count:
            steps.append(
                .perform { _, context in context.info[Count.self] = (context.info[Count.self] ?? 0) + 1 })
            return .init(steps, then: .pass)
        case .fail: return .init(steps, throwing: Boom())
        case .park(let gate): return .init(steps + [.park(gate)], then: .handled)
        case .parkThenPass(let gate): return .init(steps + [.park(gate)], then: .pass)
        case .perform(let action):
            steps.append(.perform { _, _ in action() })
            return .init(steps, then: .pass)
        }
    }

    static func perform(_ behavior: Behavior, context: inout EventContext) async throws -> Disposition {
        switch behavior {
        case .pass:
            return .pass
        case .handle:
            return .handled
        case .handleAndContinue:
            return .handledAndContinue
        case .stamp(let stamp):
            context.info[Stamp.self] = stamp
            return .handledAndContinue
        case .count:
            context.info[Count.self] = (context.info[Count.self] ?? 0) + 1
            return .pass
        case .fail:
            throw Boom()
        case .park(let gate):
            try await gate.pass()
            return .handled
        case .parkThenPass(let gate):
            try await gate.pass()
            return .pass
        case .perform(let action):
            action()
            return .pass
        }
    }

    /// Binds `hopMarker` to `hop N` around each hop, and restores the `requestID` captured in the
    /// sender's task; forwards point events to a ``RecordingTracer``.
    final class ScopedTracer: ScopingTracer {
        let recorder = RecordingTracer()
        /// The `hopMarker` bound when each point event was recorded, in order.
        let markersAtRecord = Locked<[String?]>([])
        /// How many times the context was captured: once per send.
        let captures = Locked(0)

        func captureContext() -> String? {
            captures.withLock { $0 += 1 }
            return TracingFixtures.requestID
        }

        nonisolated(nonsending) func withHop(
            _ scope: Hop.Scope<String>,
            _ body: nonisolated(nonsending) () async throws -> Disposition
        ) async throws -> Disposition {
            try await TracingFixtures.$requestID.withValue(scope.context) {
                try await TracingFixtures.$hopMarker.withValue("hop \(scope.number)") {
                    try await body()
                }
            }
        }

        func record(_ event: TraceEvent) {
            markersAtRecord.withLock { $0.append(TracingFixtures.hopMarker) }
            recorder.record(event)
        }
    }

    /// A plain ``Tracer`` (not a ``ScopingTracer``) with a correctly spelled `withHop`: an
    /// ordinary method, which no send ever calls.
    final class PlainTracerWithStrayScope: Tracer {
        let recorder = RecordingTracer()
        /// How many times the stray `withHop` ran: never.
        let strayCalls = Locked(0)

        nonisolated(nonsending) func withHop(
            _ scope: Hop.Scope<Never>,
            _ body: nonisolated(nonsending) () async throws -> Disposition
        ) async throws -> Disposition {
            strayCalls.withLock { $0 += 1 }
            return try await TracingFixtures.$hopMarker.withValue("stray") { try await body() }
        }

        func record(_ event: TraceEvent) { recorder.record(event) }
    }

    /// A scope written as a plain `async` method: only `body` spells `nonisolated(nonsending)`.
    /// The compiler accepts it as the witness (it runs off the caller's executor), and sends
    /// calls it.
    struct ConcurrentScopeTracer: ScopingTracer {
        func withHop(
            _ scope: Hop.Scope<Never>,
            _ body: nonisolated(nonsending) () async throws -> Disposition
        ) async throws -> Disposition {
            try await TracingFixtures.$hopMarker.withValue("concurrent \(scope.number)") {
                try await body()
            }
        }

        func record(_ event: TraceEvent) {}
    }

    /// A responder that notes the `hopMarker` bound when its handler runs and when the route
    /// reads its `next` (after the handler, when the hop's scope has closed).
    actor Watcher: Responder {
        let parent: any Responder
        private(set) var markersInHandler: [String?] = []
        private(set) var markersReadingNext: [String?] = []

        init(parent: any Responder) { self.parent = parent }

        var next: (any Responder)? {
            markersReadingNext.append(TracingFixtures.hopMarker)
            return parent
        }

        static let strategies = Strategies<Watcher> {
            $0.on(Ping.self) { watcher, _, _ in
                watcher.markersInHandler.append(TracingFixtures.hopMarker)
                return .pass
            }
        }
    }

    /// A scope that misbehaves in one of the ways a tracer can.
    final class MisbehavingTracer: ScopingTracer {
        enum Fault: Sendable {
            /// Returns `.handled` without calling `body`.
            case skipsHandler
            /// Throws `Boom` without calling `body`.
            case throwsInstead
            /// Calls `body` twice.
            case runsHandlerTwice
            /// Catches what `body` throws and returns `.handled`.
            case swallowsErrors
            /// Calls `body`, then throws `Boom`.
            case throwsAfterHandler
            /// Parks on a gate before calling `body`.
            case parks(Gate)
            /// Parks on a gate before calling `body`, at hops of the responder with this label
            /// only.
            case parksAt(String, Gate)
        }

        let fault: Fault
        let recorder = RecordingTracer()

        init(_ fault: Fault) { self.fault = fault }
        /// Errors the second `body` call threw at the scope.
        let secondCallErrors = Locked<[ResponderChainError]>([])

        nonisolated(nonsending) func withHop(
            _ scope: Hop.Scope<Never>,
            _ body: nonisolated(nonsending) () async throws -> Disposition
        ) async throws -> Disposition {
            switch fault {
            case .skipsHandler:
                return .handled
            case .throwsInstead:
                throw Boom()
            case .runsHandlerTwice:
                let first = try await body()
                do {
                    _ = try await body()
                } catch let violation as ResponderChainError {
                    secondCallErrors.withLock { $0.append(violation) }
                }
                return first
            case .swallowsErrors:
                do { return try await body() } catch { return .handled }
            case .throwsAfterHandler:
                _ = try await body()
                throw Boom()
            case .parks(let gate):
                try await gate.pass()
                return try await body()
            case .parksAt(let label, let gate):
                if scope.responder.label == label { try await gate.pass() }
                return try await body()
            }
        }

        func record(_ event: TraceEvent) { recorder.record(event) }
    }

    /// What several tracers did, in the order they did it, as short lines (`A gate req-1`,
    /// `B capture`, `A sent`, `B enter 1`, …).
    final class Journal: Sendable {
        private let entries = Locked<[String]>([])

        func note(_ entry: String) { entries.withLock { $0.append(entry) } }

        var all: [String] { entries.withLock { $0 } }

        func reset() { entries.withLock { $0.removeAll() } }
    }

    /// A plain tracer whose gate is a flag that can be flipped at any time; notes each call of
    /// its gate (with the `requestID` bound where it runs) and each point event in a journal.
    final class GatedTracer: Tracer {
        let name: String
        let journal: Journal
        let recorder = RecordingTracer()
        private let accepting: Atomic<Bool>

        init(_ name: String, accepts: Bool = true, journal: Journal = Journal()) {
            self.name = name
            self.journal = journal
            self.accepting = Atomic(accepts)
        }

        func accept(_ accepts: Bool) { accepting.store(accepts, ordering: .relaxed) }

        func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
            journal.note("\(name) gate \(TracingFixtures.requestID ?? "-")")
            return accepting.load(ordering: .relaxed)
        }

        func record(_ event: TraceEvent) {
            journal.note("\(name) \(RecordingTracer.shape(of: [event])[0])")
            recorder.record(event)
        }
    }

    /// A scoping tracer with a gate: its scope appends `name(context)` to ``scopes`` around the
    /// handlers, the context being what it captured (`name:requestID`); notes each call of its
    /// gate, of its capture and each point event in a journal.
    final class NestingTracer: ScopingTracer {
        /// The scopes the current code runs in, outermost first.
        @TaskLocal static var scopes: [String] = []

        let name: String
        let journal: Journal
        let accepts: Bool
        let recorder = RecordingTracer()

        init(_ name: String, accepts: Bool = true, journal: Journal = Journal()) {
            self.name = name
            self.accepts = accepts
            self.journal = journal
        }

        func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
            journal.note("\(name) gate \(TracingFixtures.requestID ?? "-")")
            return accepts
        }

        func captureContext() -> String? {
            journal.note("\(name) capture")
            return "\(name):\(TracingFixtures.requestID ?? "-")"
        }

        nonisolated(nonsending) func withHop(
            _ scope: Hop.Scope<String>,
            _ body: nonisolated(nonsending) () async throws -> Disposition
        ) async throws -> Disposition {
            try await Self.$scopes.withValue(Self.scopes + ["\(name)(\(scope.context ?? "nil"))"]) {
                try await body()
            }
        }

        func record(_ event: TraceEvent) {
            journal.note("\(name) \(RecordingTracer.shape(of: [event])[0])")
            recorder.record(event)
        }
    }
}

extension ScriptedResponder {
    /// A tracing suites' ``TracingFixtures/Station`` called `name`, handling ``TracingFixtures/Ping``
    /// with `behavior`.
    init(
        tracing name: String, _ behavior: TracingFixtures.Behavior = .pass, parent: (any Responder)? = nil,
        root: Bool = false, system: EventSystem = .default
    ) {
        self.init(
            name, TracingFixtures.script(behavior), parent: parent, root: root, system: system,
            handling: [TracingFixtures.Ping.self])
    }

    /// What its handlers saw, with the task-local values bound where they ran, in order.
    var sightingsInScope: [TracingFixtures.Sighting] {
        notes.compactMap { $0 as? TracingFixtures.Sighting }
    }
}
