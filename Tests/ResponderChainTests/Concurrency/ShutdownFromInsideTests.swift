import ResponderChain
import ResponderChainTesting
import Testing

private typealias O = ObservationFixtures

/// Stops the service: its handler shuts the system down.
private struct Quit: Event {}
/// Ordinary work; `park` makes the handler wait at the service's gate.
private struct Work: Event {
    let number: Int
    var park = false
}

/// A root that handles `Work` (parking at `gate` when asked) and answers `Quit` by shutting its
/// own system down, keeping the report.
private actor Service: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    let gate = Gate()
    private(set) var report: EventSystem.ShutdownReport?
    private(set) var worked: [Int] = []
    /// How long the shutdown called from `Quit` may wait: long, so that a wait for itself would
    /// show as a test running out of time rather than as a grace period ending.
    let gracePeriod: Duration

    init(system: EventSystem, gracePeriod: Duration = .seconds(3_600)) {
        self.eventSystem = system
        self.gracePeriod = gracePeriod
    }

    static let strategies = Strategies<Service> {
        $0.on(Quit.self) { me, _, _ in
            me.report = await me.eventSystem.shutDown(gracePeriod: me.gracePeriod)
            return .handled
        }
        $0.on(Work.self) { me, work, _ in
            if work.park { try await me.gate.pass() }
            me.worked.append(work.number)
            return .handled
        }
    }
}

/// A sender below the service: each sender is its own lane.
private actor Sender: Responder {
    nonisolated let eventSystem: EventSystem
    let service: Service
    var next: (any Responder)? { service }

    init(_ service: Service) {
        self.eventSystem = service.eventSystem
        self.service = service
    }
}

@Suite("Shutdown from inside the system's own deliveries", .timeLimit(.minutes(1)))
struct ShutdownFromInsideTests {
    /// A system whose dead-letter sink shuts it down, and the reports the sink got.
    private static func systemWhoseSinkShutsItDown() -> (EventSystem, ReportRecorder) {
        let box = SystemBox()
        let reports = ReportRecorder()
        let system = EventSystem(
            deadLetters: DeadLetter.Sink { _ in
                guard let system = box.system else { return }
                reports.record(await system.shutDown(gracePeriod: .seconds(3_600)))
            })
        box.system = system
        return (system, reports)
    }

    @Test(
        "a handler that shuts its own system down gets the report without waiting for itself; the report adds up"
    )
    func quitHandler() async throws {
        let letters = DeadLetterRecorder()
        let system = EventSystem(deadLetters: letters.sink)
        let service = Service(system: system)
        let outcomes = system.observeOutcomes()
        async let observed = O.readToEnd(outcomes)
        let worker = Sender(service)
        let quitter = Sender(service)

        let parked = await worker.post(Work(number: 5, park: true))
        try await service.gate.waitForArrivals(1)
        let quit = await quitter.post(Quit())
        let behindQuit = await quitter.post(Work(number: 9))  // queued behind Quit, on its lane
        try await system.waitUntilShuttingDown()
        service.gate.open()

        #expect(await quit.outcome.kind == .handled)
        let report = try #require(await service.report)
        #expect(report == EventSystem.ShutdownReport(finished: 1, endedEarly: 1, refused: 0, inProgress: 1))
        #expect(await parked.outcome.kind == .handled)
        let early = try #require(await behindQuit.outcome.cancelledDetails)
        #expect(early.reason == .shutdown)
        #expect(await service.worked == [5])
        #expect(letters.outcomes.map(\.eventID) == [behindQuit.eventID])
        #expect(system.outstandingPosts == 0)
        // The streams finish once the Quit post itself has ended, with it in them.
        #expect(
            Set(await observed.map(\.outcome.eventID)) == [parked.eventID, quit.eventID, behindQuit.eventID])
        // Made once: a later call returns the same report.
        #expect(await system.shutDown(gracePeriod: .zero) == report)
    }

    @Test("the dead-letter sink of a post that shuts the system down does not wait for itself")
    func deadLetterSinkShutsDown() async throws {
        let (system, reports) = Self.systemWhoseSinkShutsItDown()
        let orphan = Orphan(system: system)  // not a root, no next: interrupted, dead-lettered

        let ticket = await orphan.post(Work(number: 1))

        #expect(await ticket.outcome.kind == .interrupted)
        #expect(
            reports.all == [EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: 0, inProgress: 1)]
        )
        #expect(system.outstandingPosts == 0)
    }

    @Test(
        "a sink that shuts down again gets the counts so far when the shutdown's own endings reach it, the report when its post's delivery does"
    )
    func shutdownReachedFromItsOwnEndings() async throws {
        let (system, reports) = Self.systemWhoseSinkShutsItDown()
        let service = Service(system: system)
        let sender = Sender(service)
        let parked = await sender.post(Work(number: 1, park: true))
        try await service.gate.waitForArrivals(1)
        let queued = await sender.post(Work(number: 2))

        // The grace period ends at once: the queued post ends early, its letter reaches the sink
        // from inside the shutdown's own endings; the parked post is cancelled, and its letter
        // reaches the sink from inside its own delivery.
        let report = await system.shutDown(gracePeriod: .zero)

        #expect(report == EventSystem.ShutdownReport(finished: 0, endedEarly: 1, refused: 0, inProgress: 1))
        #expect(queued.finishedOutcome?.cancelledDetails?.reason == .shutdown)
        #expect(await parked.outcome.cancelledDetails?.reason == .shutdown)  // after its sink
        #expect(
            Set(reports.all) == [EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: 0), report])
    }

    @Test("waiting for the shutdown to begin returns once it has, and at once after")
    func waitUntilShuttingDown() async throws {
        let system = EventSystem()
        let waiting = Task { try await system.waitUntilShuttingDown() }
        _ = await system.shutDown(gracePeriod: .zero)
        try await waiting.value
        try await system.waitUntilShuttingDown()
    }

    @Test("waiting for the shutdown to begin throws when the waiting task is cancelled")
    func waitUntilShuttingDownCancelled() async {
        let system = EventSystem()
        let waiting = Task { try await system.waitUntilShuttingDown() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!system.isShuttingDown)
    }
}

/// A responder with no next that is not a root: what it sends ends interrupted.
private actor Orphan: Responder {
    nonisolated let eventSystem: EventSystem
    var next: (any Responder)? { nil }
    init(system: EventSystem) { self.eventSystem = system }
}

/// The system a sink refers to, set once it exists.
private final class SystemBox: Sendable {
    private let stored = Locked<EventSystem?>(nil)
    var system: EventSystem? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// The reports the sinks got.
private final class ReportRecorder: Sendable {
    private let reports = Locked<[EventSystem.ShutdownReport]>([])
    func record(_ report: EventSystem.ShutdownReport) { reports.withLock { $0.append(report) } }
    var all: [EventSystem.ShutdownReport] { reports.withLock { $0 } }
}
