// The child process of the crash suite (Tests/ResponderChainSQLiteTests/CrashTests.swift): it
// recovers what earlier runs left unfinished in the SQLite file, posts its share of work on four
// ordering keys, applies each effect once through the inbox, and kills itself with SIGKILL at
// its crash point (see CrashPoint). Without one, it handles everything and shuts down.
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

let arguments: ChildArguments
do {
    arguments = try ChildArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    writeLine(error.description, to: 2)
    exit(64)
}

do {
    var events = StoredEvents()
    try events.register(Work.self, as: "work")
    let sqlite = try SQLitePostStore(path: arguments.path, events: events, durability: .processCrash)
    try await sqlite.write { db, _ in try db.execute(sql: WorkDesk.schema) }

    let trigger = CrashTrigger(point: arguments.point, occurrence: arguments.occurrence)
    let system = EventSystem(storage: .store(CrashingStore(wrapping: sqlite, trigger: trigger)))
    let desk = WorkDesk(system: system, store: sqlite, trigger: trigger, seed: arguments.seed)
    try system.register(desk, as: "work")
    writeLine("recovered \(try await system.recoverStoredPosts())", to: 1)

    // One poster per key, each posting its key's share in order; they interleave by the seed.
    let tickets = await withTaskGroup(of: [Ticket].self) { group in
        for lane in 0..<4 {
            let seqs = arguments.seqs.filter { $0 % 4 == lane }
            group.addTask {
                var tickets: [Ticket] = []
                for seq in seqs {
                    for _ in 0..<((arguments.seed &+ UInt64(seq) &* 2_654_435_761) % 3) { await Task.yield() }
                    let ticket = await desk.post(Work(seq: seq), key: Work(seq: seq).key)
                    if case .rejected(let rejection) = ticket.finishedOutcome {
                        writeLine("rejected \(seq) \(rejection)", to: 2)
                    } else {
                        writeLine("accepted \(seq) \(ticket.eventID)", to: 1)
                    }
                    tickets.append(ticket)
                }
                return tickets
            }
        }
        var all: [Ticket] = []
        for await tickets in group { all += tickets }
        return all
    }
    // Each key's recovered posts are ahead of its new ones: once these end, all have.
    for ticket in tickets { _ = await ticket.outcome }
    let report = await system.shutDown(gracePeriod: .seconds(30))
    if trigger.isArmed {
        writeLine(
            "run \(arguments.run): \(arguments.point!.rawValue) not reached after \(trigger.passes) occurrences (\(report))",
            to: 2)
        exit(3)
    }
    guard report.kept == 0, report.endedEarly == 0 else {
        writeLine("run \(arguments.run): shut down with work left (\(report))", to: 2)
        exit(4)
    }
    exit(0)
} catch {
    writeLine("run \(arguments.run): \(error)", to: 2)
    exit(1)
}
