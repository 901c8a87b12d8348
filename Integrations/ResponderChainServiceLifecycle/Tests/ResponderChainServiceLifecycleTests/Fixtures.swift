import ResponderChain
import ResponderChainServiceLifecycle
import ResponderChainTesting

/// A numbered event.
struct Job: Event, Equatable {
    let poster: Int
    let number: Int
}

/// A root that handles every ``Job``, each after its gate opens (when it has one).
actor Worker: Responder {
    nonisolated let eventSystem: EventSystem
    private let gate: Gate?
    private(set) var handled: [Job] = []

    init(system: EventSystem, gate: Gate? = nil) {
        self.eventSystem = system
        self.gate = gate
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Worker> {
        $0.on(Job.self) { worker, job, _ in
            try await worker.gate?.pass()
            worker.handled.append(job)
            return .handled
        }
    }
}

/// Collects what `onShutdown` was given.
actor ReportBox {
    private(set) var reports: [EventSystem.ShutdownReport] = []
    func append(_ report: EventSystem.ShutdownReport) { reports.append(report) }
}

/// A system whose dead letters are recorded, a ``Worker`` on it whose handler parks each job on
/// `gate` until it opens, and an `EventSystemService` for the system that reports to `reports`.
struct GatedService {
    let gate = Gate()
    let letters = DeadLetterRecorder()
    let reports = ReportBox()
    let system: EventSystem
    let worker: Worker
    let service: EventSystemService

    init(gracePeriod: Duration) {
        system = EventSystem(deadLetters: letters.sink)
        worker = Worker(system: system, gate: gate)
        let reports = reports
        service = EventSystemService(system, gracePeriod: gracePeriod) { await reports.append($0) }
    }
}
