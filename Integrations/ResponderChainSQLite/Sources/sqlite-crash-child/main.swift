// The child process of the crash suite (Tests/ResponderChainSQLiteTests/CrashTests.swift): it
// recovers what earlier runs left unfinished in the SQLite file, posts its share of work on four
// ordering keys, applies each effect once through the inbox, and kills itself with SIGKILL at
// its crash point (ResponderChainTesting's CrashPoint, CrashTrigger and CrashingPostStore).
// Without one, it handles everything and shuts down.
//
// Standard output: `recovered <count>` once recovery began delivering what the file held
// unfinished; `accepted <seq> <event id>`, one line per post as soon as `post` returned it
// accepted; `skipped <seq>` for a delivery the inbox found done already. Standard error:
// `reached <point>` just before the kill. Exit status: 0 after a clean run, 3 if the crash point
// was never reached, 4 if a clean run shut down with work left, 64 for a bad command line, 1 for
// any other error.
import Foundation
import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import ResponderChainTesting

let arguments: ChildArguments
do {
    arguments = try ChildArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    CrashInjection.writeLine(error.description, to: 2)
    exit(64)
}

do {
    let run = arguments.run
    var events = StoredEvents()
    try events.register(CrashSuite.Work.self, as: "work")
    let sqlite = try SQLitePostStore(path: arguments.path, events: events, durability: .processCrash)
    try await sqlite.write { db, _ in try db.execute(sql: WorkDesk.schema) }

    let trigger = CrashTrigger(point: run.point, occurrence: run.occurrence)
    let system = EventSystem(storage: .store(CrashingPostStore(wrapping: sqlite, trigger: trigger)))
    let desk = WorkDesk(system: system, store: sqlite, trigger: trigger, run: run)
    try system.register(desk, as: "work")
    CrashInjection.writeLine("recovered \(try await system.recoverStoredPosts())", to: 1)

    let tickets = await run.post(from: desk)
    // Each key's recovered posts are ahead of its new ones: once these end, all have.
    for ticket in tickets { _ = await ticket.outcome }
    let report = await system.shutDown(gracePeriod: .seconds(30))
    if trigger.isArmed {
        CrashInjection.writeLine(
            "run \(run.number): \(run.point!.rawValue) not reached after \(trigger.passes) occurrences (\(report))",
            to: 2)
        exit(3)
    }
    guard report.kept == 0, report.endedEarly == 0 else {
        CrashInjection.writeLine("run \(run.number): shut down with work left (\(report))", to: 2)
        exit(4)
    }
    exit(0)
} catch {
    CrashInjection.writeLine("run \(arguments.run.number): \(error)", to: 2)
    exit(1)
}
