@testable import ResponderChain
import ResponderChainTesting
import Testing

/// Fixtures for the regression tests of the concurrency suites: a responder whose handler follows
/// a per-event script, a one-at-a-time responder that counts how many of its handlers run at once,
/// a light yielding responder for races, and the ways a send can be stopped.
extension ConcurrencyFixtures {
    /// One step of a ``Scripted`` responder's handler.
    enum Step: Sendable {
        /// Parks on the gate until it opens; a cancellation wakes it with `CancellationError`,
        /// which the handler throws.
        case park(Gate)
        /// Parks on the gate; a cancellation (or a passed deadline) wakes it, and the handler goes
        /// on as if nothing had happened.
        case parkIgnoringStop(Gate)
        /// Posts event `number` from `sender` (this responder when `nil`) without awaiting its
        /// outcome; the ticket is kept in ``Scripted/tickets``.
        case post(Int, from: (any Responder)? = nil)
        /// Starts a `Task {}` that waits until `gate` opens, then runs `body` with this responder.
        /// The handler does not wait for it; the task is kept in ``Scripted/spawned``.
        case spawn(after: Gate, @Sendable (Scripted) async -> Void)
    }

    /// What a ``Scripted`` responder's handler does with one event: its steps, then a disposition.
    struct Script: Sendable {
        var steps: [Step]
        var disposition: Disposition

        init(_ steps: [Step] = [], then disposition: Disposition = .handled) {
            self.steps = steps
            self.disposition = disposition
        }
    }

    /// A responder whose handler for ``Numbered`` event `n` runs `scripts[n]` (or `otherwise`),
    /// and logs when each handler starts and ends.
    actor Scripted: Responder {
        let name: String
        let root: Bool
        nonisolated let handlingLock: HandlingLock?
        nonisolated let eventSystem: EventSystem
        private var parent: (any Responder)?
        private let scripts: [Int: Script]
        private let otherwise: Script
        /// When set, reading ``next`` parks on this gate first (a cancellation wakes it).
        private let nextGate: Gate?

        /// The order handlers started and ended, e.g. `["start 0", "end 0", "start 1", …]`.
        private(set) var log: [String] = []
        /// The tickets of the events the handlers posted, in post order.
        private(set) var tickets: [Ticket] = []
        /// The tasks the handlers started.
        private(set) var spawned: [Task<Void, Never>] = []
        /// How many of this responder's handlers are running (or suspended) right now.
        private var running = 0
        /// The most handlers that ran (or were suspended) at once.
        private(set) var maxRunning = 0

        init(
            _ name: String, parent: (any Responder)? = nil, root: Bool = false, exclusive: Bool = false,
            system: EventSystem = .default, nextGate: Gate? = nil, scripts: [Int: Script] = [:],
            otherwise: Script = Script()
        ) {
            self.name = name
            self.parent = parent
            self.root = root
            self.handlingLock = exclusive ? HandlingLock() : nil
            self.eventSystem = system
            self.nextGate = nextGate
            self.scripts = scripts
            self.otherwise = otherwise
        }

        var next: (any Responder)? {
            get async {
                if let nextGate { try? await nextGate.pass() }
                return parent
            }
        }

        nonisolated var isRoot: Bool { root }
        nonisolated var label: String { name }

        func link(to parent: (any Responder)?) { self.parent = parent }

        static let strategies = Strategies<Scripted> {
            $0.on(Numbered.self) { node, event, context in
                try await node.receive(event)
            }
        }

        private func receive(_ event: Numbered) async throws -> Disposition {
            running += 1
            maxRunning = max(maxRunning, running)
            log.append("start \(event.number)")
            defer {
                log.append("end \(event.number)")
                running -= 1
            }
            let script = scripts[event.number] ?? otherwise
            for step in script.steps {
                switch step {
                case .park(let gate):
                    try await gate.pass()
                case .parkIgnoringStop(let gate):
                    try? await gate.pass()
                case .post(let number, let sender):
                    let event = Numbered(sender: event.sender, number: number)
                    tickets.append(await (sender ?? self).post(event))
                case .spawn(let gate, let body):
                    spawned.append(
                        Task {
                            try? await gate.pass()
                            await body(self)
                        })
                }
            }
            return script.disposition
        }
    }

    /// Values appended from any task, e.g. the tickets of posts made by a task a handler started.
    final class Collector<Element: Sendable>: Sendable {
        private let storage = Locked<[Element]>([])

        func append(_ element: Element) { storage.withLock { $0.append(element) } }
        var all: [Element] { storage.withLock { $0 } }
        var count: Int { storage.withLock { $0.count } }
    }

    /// An event for ``ExclusiveCounter``: `followUps` events make its handler post or start more.
    struct Job: Event {
        let id: Int
        let followUps: Bool
    }

    /// A one-at-a-time root responder that counts how many of its handlers run at once. Each
    /// handler suspends at seeded random points; a ``Job`` with `followUps` also, at random, posts
    /// a job from this responder (not awaiting it), or starts a `Task {}` that sends one to it once
    /// the handler has returned.
    actor ExclusiveCounter: Responder {
        private var random: SplitMix
        private var running = 0
        /// The most handlers that ran (or were suspended) at once.
        private(set) var maxRunning = 0
        /// How many jobs were handled.
        private(set) var handled = 0
        /// The tickets of the follow-up jobs posted by handlers.
        private(set) var tickets: [Ticket] = []
        /// The tasks started by handlers.
        private(set) var spawned: [Task<Void, Never>] = []

        nonisolated let eventSystem: EventSystem

        init(seed: UInt64, system: EventSystem) {
            random = SplitMix(seed: seed)
            self.eventSystem = system
        }

        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }
        nonisolated let handlingLock: HandlingLock? = HandlingLock()

        static let strategies = Strategies<ExclusiveCounter> {
            $0.on(Job.self) { counter, job, _ in
                await counter.receive(job)
            }
        }

        private func receive(_ job: Job) async -> Disposition {
            let returned = Gate()
            defer { returned.open() }  // runs last: the handler has finished
            running += 1
            maxRunning = max(maxRunning, running)
            defer { running -= 1 }
            handled += 1
            await yieldRandomly()
            if job.followUps {
                switch random.next() % 3 {
                case 0:
                    tickets.append(await post(Job(id: -job.id, followUps: false)))
                case 1:
                    spawned.append(
                        Task {
                            try? await returned.pass()
                            await self.send(Job(id: -job.id, followUps: false))
                        })
                default:
                    break
                }
                await yieldRandomly()
            }
            return .handled
        }

        private func yieldRandomly() async {
            for _ in 0..<Int(random.next() % 3) { await Task.yield() }
        }
    }

    /// A responder that yields once in its handler and passes: the cheapest hop that suspends.
    actor Yielder: Responder {
        private let parent: (any Responder)?
        private let root: Bool
        nonisolated let eventSystem: EventSystem

        init(parent: (any Responder)? = nil, root: Bool = false, system: EventSystem) {
            self.parent = parent
            self.root = root
            self.eventSystem = system
        }

        var next: (any Responder)? { parent }
        nonisolated var isRoot: Bool { root }

        static let strategies = Strategies<Yielder> {
            $0.on(Numbered.self) { _, _, _ in
                await Task.yield()
                return .pass
            }
        }
    }

    /// How a test stops a send: its deadline passes, its task is cancelled, or (for a posted
    /// event) its ticket is cancelled.
    enum StopCause: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case deadline
        case taskCancellation
        case ticketCancellation

        var testDescription: String {
            switch self {
            case .deadline: "deadline"
            case .taskCancellation: "task cancelled"
            case .ticketCancellation: "ticket cancelled"
            }
        }

        /// The outcome the stop must give.
        var kind: Outcome.Kind { self == .deadline ? .timedOut : .cancelled }

        /// The reason the stop must name.
        var reason: Outcome.Stop.Reason {
            switch self {
            case .deadline: .deadlinePassed
            case .taskCancellation: .taskCancelled
            case .ticketCancellation: .ticketCancelled
            }
        }

        /// The stop details of `outcome`, if it is of ``kind`` and names this cause as its reason.
        func details(_ outcome: Outcome) -> Outcome.Stop? {
            let stop = self == .deadline ? outcome.timedOutDetails : outcome.cancelledDetails
            return stop?.reason == reason ? stop : nil
        }

        /// Sends (or, for a ticket, posts) `event` from `sender`, stops it once `ready` returns,
        /// and returns its outcome. The deadline does not wait for `ready`: it passes 3 s after the
        /// send starts, long enough for the hops before the one under test to run even on a loaded
        /// machine under the thread sanitizer (300 ms was not: with every TSan suite running
        /// beside it, hop 2 had not started when it passed).
        func run(
            _ event: Numbered, from sender: some Responder, options: SendOptions = .default,
            stopWhen ready: () async throws -> Void
        ) async throws -> Outcome {
            switch self {
            case .deadline:
                var options = options
                options.deadline = .now + .seconds(3)
                return await sender.send(event, options: options)
            case .taskCancellation:
                let sending = Task { await sender.send(event, options: options) }
                try await ready()
                sending.cancel()
                return await sending.value
            case .ticketCancellation:
                let ticket = await sender.post(event, options: options)
                try await ready()
                ticket.cancel()
                return await ticket.outcome
            }
        }
    }
}
