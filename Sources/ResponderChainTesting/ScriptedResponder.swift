public import ResponderChain

/// A responder whose handler follows a script a test writes per event, and that records what
/// it saw: the test double most chain tests need, so that they need not write their own.
///
/// A ``Script`` is a list of ``Step``s (park on a ``Gate``, yield, send or post another event,
/// start a task, run a closure) followed by an ending: a `Disposition` to return, or an error to
/// throw. Give one script for every event, or a function that picks the script for each event:
///
/// ```swift
/// let gate = Gate()
/// let root = ScriptedResponder("root", .handle, root: true)
/// let leaf = ScriptedResponder("leaf", .park(gate, then: .pass), parent: root)
///
/// let sending = Task { await leaf.send(Ping()) }
/// try await gate.waitForArrivals(1)   // the leaf's handler is parked
/// gate.open()
/// let outcome = await sending.value
///
/// #expect(outcome.handledDetails?.handlers == [ResponderID(root)])
/// #expect(await leaf.seen.map(\.hop) == [1])
/// #expect(await leaf.log == ["start Ping", "end Ping"])
/// ```
///
/// What it records, in the order its handlers ran: ``seen`` (each event with its context as the
/// handler received it), ``log`` (`start …` and `end …` around each handler), ``maxRunning``
/// (the most handlers that ran at once), and what its steps produced: ``outcomes`` of the events
/// they sent, ``tickets`` of the events they posted, ``spawned`` tasks, ``notes``.
///
/// By default it handles every event that reaches it (a catch-all handler); pass `handling` to
/// handle only some event types and let the others pass by without a handler.
public actor ScriptedResponder: Responder {
    /// One step of a handler, run before the script's ending.
    public enum Step: Sendable {
        /// Parks on the gate until it opens. A cancellation (of the task, or a passed deadline
        /// that cancels it) wakes it with `CancellationError`, which the handler throws.
        case park(Gate)
        /// Parks on the gate until it opens; a cancellation wakes it and the handler goes on as
        /// if nothing had happened.
        case parkIgnoringStop(Gate)
        /// Yields the task this many times: a suspension point with nothing to wait for.
        case yield(Int)
        /// Sends the event `make` returns for the event being handled (nothing when it returns
        /// `nil`) from `sender` (this responder when `nil`), awaits it, and keeps its outcome in
        /// ``ScriptedResponder/outcomes``.
        case send(from: (any Responder)? = nil, @Sendable (any Event) -> (any Event)?)
        /// Posts the event `make` returns for the event being handled (nothing when it returns
        /// `nil`) from `sender` (this responder when `nil`) without awaiting its outcome, and
        /// keeps its ticket in ``ScriptedResponder/tickets``.
        case post(from: (any Responder)? = nil, @Sendable (any Event) -> (any Event)?)
        /// Starts a `Task {}` that passes `gate` (so the test decides when it runs), then runs
        /// `body` with this responder. The handler does not wait for it; the task is kept in
        /// ``ScriptedResponder/spawned``.
        case spawn(after: Gate, @Sendable (ScriptedResponder) async -> Void)
        /// Runs `body` with the event and its context: read or decorate the context, record
        /// something of the test's own, or throw.
        case perform(@Sendable (any Event, inout EventContext) async throws -> Void)
        /// Keeps what `body` returns for the event and its context in
        /// ``ScriptedResponder/notes``: for what a ``Sighting`` does not hold, such as the
        /// task-local values bound where the handler runs.
        case note(@Sendable (any Event, EventContext) -> any Sendable)
    }

    /// How a handler ends, once its steps have run.
    public enum Ending: Sendable {
        /// Returns the disposition.
        case disposition(Disposition)
        /// Throws the error (the send ends `.failed`).
        case failure(any Error)
    }

    /// What a handler does with one event: its steps, in order, then its ending.
    public struct Script: Sendable {
        /// The steps, run in order before the ending.
        public var steps: [Step]
        /// What the handler returns or throws once the steps have run.
        public var ending: Ending

        /// Runs `steps`, then returns `disposition`.
        public init(_ steps: [Step] = [], then disposition: Disposition = .handled) {
            self.steps = steps
            self.ending = .disposition(disposition)
        }

        /// Runs `steps`, then throws `error`.
        public init(_ steps: [Step] = [], throwing error: any Error) {
            self.steps = steps
            self.ending = .failure(error)
        }

        /// Passes the event on.
        public static var pass: Script { Script(then: .pass) }
        /// Handles the event.
        public static var handle: Script { Script(then: .handled) }
        /// Handles the event and lets it continue up the chain.
        public static var handleAndContinue: Script { Script(then: .handledAndContinue) }

        /// Throws `error`.
        public static func fail(_ error: any Error) -> Script { Script(throwing: error) }

        /// Parks on `gate` (a cancellation wakes it and fails the handler with
        /// `CancellationError`), then returns `disposition`.
        public static func park(_ gate: Gate, then disposition: Disposition = .handled) -> Script {
            Script([.park(gate)], then: disposition)
        }
    }

    /// One event as a handler received it.
    public struct Sighting: Sendable {
        /// The event.
        public let event: any Event
        /// The send's identifier.
        public let eventID: EventID
        /// The hop number (1 for the first responder the send visited).
        public let hop: Int
        /// The phase the handler ran in.
        public let phase: EventContext.Phase
        /// Where the send came from.
        public let source: EventSource
        /// The information the event carried when the handler started.
        public let info: EventInfo
    }

    /// This responder's label (its name in traces and outcomes).
    public nonisolated let label: String
    /// Whether this responder is the root of its chain.
    public nonisolated let isRoot: Bool
    /// The lock that makes this responder handle one event at a time, when it was made
    /// `exclusive`.
    public nonisolated let handlingLock: HandlingLock?
    /// The system this responder's sends and posts use.
    public nonisolated let eventSystem: EventSystem
    /// The handlers: a catch-all, or one handler for each type given as `handling`.
    public nonisolated let strategies: Strategies<ScriptedResponder>

    private var parent: (any Responder)?
    private var scriptFor: @Sendable (any Event) -> Script
    private let nextGate: Gate?

    /// Every event a handler received, in the order the handlers started.
    public private(set) var seen: [Sighting] = []
    /// `start E` when a handler starts and `end E` when it returns or throws, E being the event's
    /// `description` when it is `CustomStringConvertible`, its `traceName` otherwise.
    public private(set) var log: [String] = []
    /// The most of this responder's handlers that were running (or suspended) at once.
    public private(set) var maxRunning = 0
    /// The outcomes of the events ``Step/send(from:_:)`` steps sent, in the order they finished.
    public private(set) var outcomes: [Outcome] = []
    /// The tickets of the events ``Step/post(from:_:)`` steps posted, in post order.
    public private(set) var tickets: [Ticket] = []
    /// The tasks ``Step/spawn(after:_:)`` steps started, in order.
    public private(set) var spawned: [Task<Void, Never>] = []
    /// What ``Step/note(_:)`` steps kept, in the order they ran.
    public private(set) var notes: [any Sendable] = []
    /// Whether a park step woke to find its task cancelled.
    public private(set) var sawTaskCancelled = false
    /// Whether a park step woke to find its send stopped (`EventContext/isCancelled`).
    public private(set) var sawContextCancelled = false
    private var running = 0

    /// A responder that runs `script` for every event it handles.
    ///
    /// - Parameters:
    ///   - label: Its name in traces and outcomes.
    ///   - script: What its handler does with each event.
    ///   - parent: Its `next`; change it later with ``link(to:)``.
    ///   - root: Whether it is the root of its chain (an event it passes ends `.unhandled`).
    ///   - exclusive: Whether it handles one event at a time (it gets a `HandlingLock`).
    ///   - system: The system its sends and posts use.
    ///   - nextGate: When set, reading `next` first passes this gate: the route stops between
    ///     this responder's hop and the next until the test opens it.
    ///   - handling: The event types it has a handler for; every type when `nil`.
    public init(
        _ label: String, _ script: Script = .pass, parent: (any Responder)? = nil,
        root: Bool = false, exclusive: Bool = false, system: EventSystem = .default,
        nextGate: Gate? = nil, handling: [any Event.Type]? = nil
    ) {
        self.init(
            label, parent: parent, root: root, exclusive: exclusive, system: system,
            nextGate: nextGate, handling: handling, scripts: { _ in script })
    }

    /// A responder that runs, for each event it handles, the script `scripts` picks for it.
    ///
    /// ```swift
    /// let node = ScriptedResponder("node", root: true) { event in
    ///     (event as? Numbered)?.number == 0 ? .park(gate) : .handle
    /// }
    /// ```
    ///
    /// The parameters are those of ``init(_:_:parent:root:exclusive:system:nextGate:handling:)``.
    public init(
        _ label: String, parent: (any Responder)? = nil, root: Bool = false,
        exclusive: Bool = false, system: EventSystem = .default, nextGate: Gate? = nil,
        handling: [any Event.Type]? = nil, scripts: @escaping @Sendable (any Event) -> Script
    ) {
        self.label = label
        self.parent = parent
        self.isRoot = root
        self.handlingLock = exclusive ? HandlingLock() : nil
        self.eventSystem = system
        self.nextGate = nextGate
        self.scriptFor = scripts
        self.strategies = Strategies { table in
            guard let handling else {
                table.onAnyEvent { responder, event, context in
                    try await responder.run(event, context: &context)
                }
                return
            }
            for type in handling { Self.register(type, in: &table) }
        }
    }

    private static func register<E: Event>(_ type: E.Type, in table: inout Strategies<ScriptedResponder>) {
        table.on(type) { responder, event, context in
            try await responder.run(event, context: &context)
        }
    }

    /// This responder's parent, read after passing the `nextGate` if there is one.
    public var next: (any Responder)? {
        get async {
            if let nextGate { try? await nextGate.pass() }
            return parent
        }
    }

    /// Makes `parent` this responder's `next` (`nil`: none).
    public func link(to parent: (any Responder)?) { self.parent = parent }

    /// Runs `script` for the events handled from now on.
    public func setScript(_ script: Script) { scriptFor = { _ in script } }

    /// Runs the script `scripts` picks for each event handled from now on.
    public func setScripts(_ scripts: @escaping @Sendable (any Event) -> Script) { scriptFor = scripts }

    private func run(_ event: any Event, context: inout EventContext) async throws -> Disposition {
        seen.append(
            Sighting(
                event: event, eventID: context.eventID, hop: context.hop, phase: context.phase,
                source: context.source, info: context.info))
        let name = (event as? any CustomStringConvertible)?.description ?? event.traceName
        running += 1
        maxRunning = max(maxRunning, running)
        log.append("start \(name)")
        defer {
            log.append("end \(name)")
            running -= 1
        }
        let script = scriptFor(event)
        for step in script.steps {
            switch step {
            case .park(let gate):
                do {
                    try await gate.pass()
                } catch {
                    noteStop(context)
                    throw error
                }
            case .parkIgnoringStop(let gate):
                try? await gate.pass()
                noteStop(context)
            case .yield(let count):
                for _ in 0..<count { await Task.yield() }
            case .send(let sender, let make):
                guard let next = make(event) else { continue }
                outcomes.append(await (sender ?? self).send(next))
            case .post(let sender, let make):
                guard let next = make(event) else { continue }
                tickets.append(await (sender ?? self).post(next))
            case .spawn(let gate, let body):
                spawned.append(
                    Task {
                        try? await gate.pass()
                        await body(self)
                    })
            case .perform(let body):
                try await body(event, &context)
            case .note(let body):
                notes.append(body(event, context))
            }
        }
        switch script.ending {
        case .disposition(let disposition): return disposition
        case .failure(let error): throw error
        }
    }

    private func noteStop(_ context: EventContext) {
        if Task.isCancelled { sawTaskCancelled = true }
        if context.isCancelled { sawContextCancelled = true }
    }
}
