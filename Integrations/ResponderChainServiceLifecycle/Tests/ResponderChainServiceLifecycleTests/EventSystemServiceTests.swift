import Logging
import ResponderChain
import ResponderChainServiceLifecycle
import ResponderChainTesting
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

@Suite("Event system service", .timeLimit(.minutes(1)))
struct EventSystemServiceTests {
    @Test("runs until the graceful shutdown, then refuses new posts and finishes the accepted ones")
    func drainsOnGracefulShutdown() async throws {
        let it = GatedService(gracePeriod: .seconds(60))

        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await it.service.run() }
                var accepted: [Ticket] = []
                for number in 0..<3 { accepted.append(await it.worker.post(Job(poster: 0, number: number))) }
                try await it.gate.waitForArrivals(1)
                #expect(!it.system.isShuttingDown)

                trigger.triggerGracefulShutdown()
                try await waitUntil("the shutdown has begun") { it.system.isShuttingDown }
                let refused = await it.worker.post(Job(poster: 1, number: 0))
                #expect(refused.finishedOutcome?.rejectedDetails?.reason == .shuttingDown)

                it.gate.open()
                try await group.waitForAll()
                for ticket in accepted { #expect(ticket.finishedOutcome?.isHandled == true) }
            }
        }
        #expect(await it.worker.handled.map(\.number) == [0, 1, 2])
        #expect(
            await it.reports.reports == [EventSystem.ShutdownReport(finished: 3, endedEarly: 0, refused: 1)])
    }

    @Test(
        "posts still held when the grace period ends are ended, dead-lettered and reported; a negative grace period is none",
        arguments: [Duration.milliseconds(1), .seconds(-5)])
    func gracePeriodEnds(_ gracePeriod: Duration) async throws {
        let it = GatedService(gracePeriod: gracePeriod)
        #expect(it.service.gracePeriod == max(.zero, gracePeriod))

        try await testGracefulShutdown { trigger in
            var tickets: [Ticket] = []
            for number in 0..<3 { tickets.append(await it.worker.post(Job(poster: 0, number: number))) }
            try await it.gate.waitForArrivals(1)
            trigger.triggerGracefulShutdown()
            try await it.service.run()
            for ticket in tickets {
                #expect(ticket.finishedOutcome?.cancelledDetails?.reason == .shutdown)
            }
        }
        #expect(
            await it.reports.reports == [EventSystem.ShutdownReport(finished: 0, endedEarly: 3, refused: 0)])
        #expect(it.letters.outcomes.count == 3)
    }

    @Test("cancelled instead of shut down gracefully, it drains at once and still accounts for every post")
    func cancelledService() async throws {
        let it = GatedService(gracePeriod: .seconds(3_600))

        let ticket = await it.worker.post(Job(poster: 0, number: 0))
        try await it.gate.waitForArrivals(1)
        try await testGracefulShutdown { _ in
            let running = Task { try await it.service.run() }
            running.cancel()
            try await running.value
        }
        #expect(ticket.finishedOutcome?.cancelledDetails?.reason == .shutdown)
        #expect(
            await it.reports.reports == [EventSystem.ShutdownReport(finished: 0, endedEarly: 1, refused: 0)])
    }

    @Test(
        "in a ServiceGroup, every post accepted before the shutdown gets exactly one outcome, with posters still posting"
    )
    func endToEndInAServiceGroup() async throws {
        let system = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 64))
        let outcomes = system.observeOutcomes(buffering: .keepingOldest(1_000_000))
        let worker = Worker(system: system)
        let reports = ReportBox()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let group = ServiceGroup(
            services: [EventSystemService(system, gracePeriod: .seconds(30)) { await reports.append($0) }],
            logger: logger)

        let posters = 4
        let tickets = try await withThrowingTaskGroup(of: [Ticket].self) { tasks in
            tasks.addTask {
                try await group.run()
                return []
            }
            for poster in 0..<posters {
                tasks.addTask {
                    var tickets: [Ticket] = []
                    // Post until the system refuses: the shutdown has begun.
                    while true {
                        let ticket = await worker.post(Job(poster: poster, number: tickets.count))
                        tickets.append(ticket)
                        if ticket.finishedOutcome?.rejectedDetails != nil { return tickets }
                        if tickets.count == 200 { await group.triggerGracefulShutdown() }
                    }
                }
            }
            var all: [Ticket] = []
            for try await some in tasks { all += some }
            return all
        }

        // Every ticket has its outcome: accepted ones handled, the rest refused.
        var outcomeOf: [EventID: Outcome] = [:]
        for ticket in tickets { outcomeOf[ticket.eventID] = await ticket.outcome }
        let refused = tickets.filter { outcomeOf[$0.eventID]?.kind == .rejected }
        #expect(refused.count >= posters)
        #expect(tickets.allSatisfy { [.handled, .rejected].contains(outcomeOf[$0.eventID]?.kind) })

        // The observation stream ended with the drain, each send in it exactly once.
        var seen: [EventID: Int] = [:]
        for await finished in outcomes { seen[finished.outcome.eventID, default: 0] += 1 }
        #expect(seen.count == tickets.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
        #expect(Set(seen.keys) == Set(tickets.map(\.eventID)))
        #expect(outcomes.droppedCount == 0)

        let report = try #require(await reports.reports.first)
        #expect(report.refused == refused.count)
        #expect(report.endedEarly == 0)
        #expect(report.finished <= tickets.count - refused.count)
        #expect(await worker.handled.count == tickets.count - refused.count)
        #expect(system.outstandingPosts == 0)
    }
}
