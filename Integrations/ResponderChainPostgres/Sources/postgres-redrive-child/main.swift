// The child process of the PostgreSQL redrive crash test
// (Tests/ResponderChainPostgresTests/RedriveCrashTests.swift), a consumer of a shared
// PostgresPostStore named <name>:
//
//   postgres-redrive-child <host> <port> <user> <database> <lease-ms> <name> seed <count>
//       posts <count> works on the crash suite's ordering keys through a desk that is down (every
//       attempt throws before its effect): each ends failed and stays as a dead letter.
//   postgres-redrive-child <host> <port> <user> <database> <lease-ms> <name> redrive <rate> <live> <point|none> <occurrence>
//       with the desk up (each work's effect applied once through the fenced inbox), consumes
//       what earlier runs left, posts <live> new works (one every 20 ms), and redrives every dead letter at <rate>
//       a second beside them; the store passes ResponderChainTesting's crash points around each
//       redrive batch and each write of new posts, and the process kills itself with SIGKILL at
//       <point>'s <occurrence>th pass (a crash point counts items: letters and posts).
//
// Standard output: `redriven <count> in <seconds>` after a redrive that was not cut short.
// Exit status: 0 after a clean run, 3 if the crash point was never reached, 4 if a clean run shut
// down with work left, 64 for a bad command line, 1 for any other error.
import Foundation
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting

let arguments = Array(CommandLine.arguments.dropFirst())
let usage =
    "usage: postgres-redrive-child <host> <port> <user> <database> <lease-ms> <name> seed <count> | … redrive <rate> <live> <point|none> <occurrence>"
guard arguments.count >= 8, let port = Int(arguments[1]), let leaseMilliseconds = Int(arguments[4]) else {
    CrashInjection.writeLine(usage, to: 2)
    exit(64)
}
let name = arguments[5]
let phase = Array(arguments.dropFirst(6))

do {
    var logger = Logger(label: "postgres-redrive-child")
    logger.logLevel = .error
    var configuration = PostgresClient.Configuration(
        host: arguments[0], port: port, username: arguments[2], password: nil, database: arguments[3],
        tls: .disable)
    // Its connections carry its name, so that the test sees when a killed run's are all closed.
    configuration.options.additionalStartupParameters = [("application_name", name)]
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    var events = StoredEvents()
    try events.register(CrashSuite.Work.self, as: "work")
    let store = try PostgresPostStore(
        client: client, events: events, consumer: name, lease: .milliseconds(leaseMilliseconds),
        logger: logger)

    let point: CrashPoint?
    let occurrence: Int
    switch (phase.first, phase.count) {
    case ("seed", 2):
        (point, occurrence) = (nil, 0)
    case ("redrive", 5):
        point = phase[3] == "none" ? nil : CrashPoint(rawValue: phase[3])
        occurrence = Int(phase[4]) ?? -1
        guard Int(phase[1]) != nil, Int(phase[2]) != nil, occurrence >= 0, phase[3] == "none" || point != nil
        else {
            CrashInjection.writeLine(usage, to: 2)
            exit(64)
        }
    default:
        CrashInjection.writeLine(usage, to: 2)
        exit(64)
    }
    let trigger = CrashTrigger(point: point, occurrence: occurrence)
    let system = EventSystem(storage: .shared(CrashingPostStore(wrapping: store, trigger: trigger)))
    let desk = RedriveDesk(system: system, store: store, up: phase[0] == "redrive")
    try system.register(desk, as: "work")

    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { await client.run() }
        group.addTask { try await store.run() }
        try await store.migrate()
        for statement in RedriveDesk.schema {
            try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        system.startConsuming(claimingUpTo: 64, pollInterval: .milliseconds(100))
        var redriven: (count: Int, seconds: Double)?
        if phase[0] == "seed" {
            let count = Int(phase[1]) ?? 0
            var tickets: [Ticket] = []
            for seq in 0..<count {
                let work = CrashSuite.Work(seq: seq)
                tickets.append(await desk.post(work, key: work.key))
            }
            for ticket in tickets { _ = await ticket.outcome }
        } else {
            let rate = Int(phase[1]) ?? 500
            let live = Int(phase[2]) ?? 0
            // Live traffic beside the redrive: new works, numbered after every earlier run's.
            var first = 0
            for try await (count, ) in try await client.query(
                "SELECT count(*) FROM responderchain_posts", logger: logger
            ).decode((Int.self,)) {
                first = count
            }
            let start = first
            let posting = Task {
                var tickets: [Ticket] = []
                for seq in 0..<live {
                    let work = CrashSuite.Work(seq: 1_000_000 + start + seq)
                    tickets.append(await desk.post(work, key: work.key))
                    // One every 20 ms: traffic that flows while the redrive runs, not a burst before it.
                    try? await system.clock.sleep(for: .milliseconds(20))
                }
                return tickets
            }
            let started = system.now
            let count = try await system.redriveDeadLetters(perSecond: rate)
            let (seconds, attoseconds) = (system.now - started).components
            redriven = (count, Double(seconds) + Double(attoseconds) / 1e18)
            for ticket in await posting.value { _ = await ticket.outcome }
        }
        // Every post of the database ended (the redriven letters, an earlier run's posts taken
        // over once its leases ended), and every finish written.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while clock.now < deadline, !(try await store.unfinished().isEmpty) {
            try await clock.sleep(for: .milliseconds(50))
        }
        let report = await system.shutDown(gracePeriod: .seconds(30))
        if trigger.isArmed {
            CrashInjection.writeLine(
                "\(phase[3]) not reached after \(trigger.passes) passes (\(report))", to: 2)
            exit(3)
        }
        guard report.kept == 0, report.endedEarly == 0, try await store.unfinished().isEmpty else {
            CrashInjection.writeLine("shut down with work left (\(report))", to: 2)
            exit(4)
        }
        if let redriven {
            CrashInjection.writeLine("redriven \(redriven.count) in \(redriven.seconds)", to: 1)
        }
        exit(0)
    }
} catch {
    CrashInjection.writeLine("\(error)", to: 2)
    exit(1)
}
