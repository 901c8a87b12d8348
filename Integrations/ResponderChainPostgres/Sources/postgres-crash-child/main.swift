// The child process of the PostgreSQL crash suite (Tests/ResponderChainPostgresTests/CrashTests.swift):
// a consumer of a shared PostgresPostStore (`storage: .shared`, `startConsuming`) that posts its
// share of work on four ordering keys, applies each effect once through the fenced inbox, and
// kills itself with SIGKILL at its crash point (ResponderChainTesting's CrashPoint, CrashTrigger
// and CrashingPostStore). The posts an earlier run left unfinished are claimed once the dead
// run's leases end. Without a crash point, it handles everything and shuts down.
//
// Standard output: `recovered <count>` once it read how many posts the database held unfinished;
// `accepted <seq> <event id>`, one line per post as soon as `post` returned it accepted;
// `skipped <seq>` for a delivery the inbox found done already. Standard error: `reached <point>`
// just before the kill. Exit status: 0 after a clean run, 3 if the crash point was never reached,
// 4 if a clean run shut down with work left, 64 for a bad command line, 1 for any other error.
//
//   postgres-crash-child HOST PORT USER DATABASE LEASE_MS RUN FIRST_SEQ COUNT POINT|none OCCURRENCE SEED
import Foundation
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting

let arguments: ChildArguments
do {
    arguments = try ChildArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    CrashInjection.writeLine(error.description, to: 2)
    exit(64)
}
let run = arguments.run

do {
    var logger = Logger(label: "postgres-crash-child")
    logger.logLevel = .warning
    // A new consumer per run: a killed run's keys are taken over once its lease ends. (Its
    // database in its name: suites on other databases of the server run at the same time.)
    let name = "crash-run-\(run.number)-\(arguments.database)"
    var configuration = PostgresClient.Configuration(
        host: arguments.host, port: arguments.port, username: arguments.username, password: nil,
        database: arguments.database, tls: .disable)
    // Its connections carry its consumer's name (pg_stat_activity), so that the test sees when
    // the server has closed them all: nothing the killed run sent can commit after that.
    configuration.options.additionalStartupParameters = [("application_name", name)]
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    var events = StoredEvents()
    try events.register(CrashSuite.Work.self, as: "work")
    let store = try PostgresPostStore(
        client: client, events: events, consumer: name, lease: arguments.lease,
        logger: logger)
    let trigger = CrashTrigger(point: run.point, occurrence: run.occurrence)
    let crashing = CrashingPostStore(wrapping: store, trigger: trigger)
    let system = EventSystem(storage: .shared(crashing))
    let desk = WorkDesk(system: system, store: store, trigger: trigger, run: run)
    try system.register(desk, as: "work")

    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { await client.run() }
        group.addTask { try await store.run() }
        try await store.migrate()
        for statement in WorkDesk.schema {
            try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        // What earlier runs left unfinished: handling one of these is a redelivery.
        CrashInjection.writeLine("recovered \(try await crashing.unfinished().count)", to: 1)
        system.startConsuming(claimingUpTo: 64, pollInterval: .milliseconds(100))

        let tickets = await run.post(from: desk)
        for ticket in tickets { _ = await ticket.outcome }
        // Each key's earlier posts are ahead of this run's, so all were handled once the tickets
        // ended; their finishes may still be on their way to the store: wait until it holds
        // nothing unfinished (a clean run), or for the crash.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while clock.now < deadline, !(try await store.unfinished().isEmpty) {
            try await clock.sleep(for: .milliseconds(50))
        }
        let report = await system.shutDown(gracePeriod: .seconds(30))
        if trigger.isArmed {
            CrashInjection.writeLine(
                "run \(run.number): \(run.point!.rawValue) not reached after \(trigger.passes) occurrences (\(report))",
                to: 2)
            exit(3)
        }
        guard report.kept == 0, report.endedEarly == 0, try await store.unfinished().isEmpty else {
            CrashInjection.writeLine("run \(run.number): shut down with work left (\(report))", to: 2)
            exit(4)
        }
        exit(0)
    }
} catch {
    CrashInjection.writeLine("run \(run.number): \(error)", to: 2)
    exit(1)
}
