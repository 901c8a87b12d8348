@testable import ResponderChain
import ResponderChainTesting
import Testing

/// Fixtures for the regression tests of the concurrency suites: a one-at-a-time responder that
/// counts how many of its handlers run at once, and the ways a send can be stopped.
extension ConcurrencyFixtures {
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
        /// and returns its outcome. The deadline passes 3 s after the send starts: given `clock`
        /// (the ``ManualClock`` of the sender's system), the clock is moved those 3 s once `ready`
        /// returns; on a real clock it does not wait for `ready`, and 3 s is long enough for the
        /// hops before the one under test to run even on a loaded machine under the thread
        /// sanitizer (300 ms was not: with every TSan suite running beside it, hop 2 had not
        /// started when it passed).
        func run(
            _ event: Numbered, from sender: some Responder, options: SendOptions = .default,
            clock: ManualClock? = nil, stopWhen ready: () async throws -> Void
        ) async throws -> Outcome {
            switch self {
            case .deadline:
                if let clock {
                    var options = options
                    options.deadline = clock.now + .seconds(3)
                    let sending = Task { [options] in await sender.send(event, options: options) }
                    try await ready()
                    await clock.advance(by: .seconds(3))  // returns once the send has ended
                    return await sending.value
                }
                var options = options
                options.deadline = EventSystem.default.now + .seconds(3)
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
