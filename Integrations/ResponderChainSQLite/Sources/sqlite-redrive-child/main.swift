// The child process of the redrive crash test (Tests/ResponderChainSQLiteTests/RedriveCrashTests.swift):
//
//   sqlite-redrive-child <database> seed <count>
//       posts <count> works on the crash suite's ordering keys through a desk that is down (every attempt
//       throws): each ends failed and stays in the file as a dead letter.
//   sqlite-redrive-child <database> redrive <rate> <live> <point|none> <occurrence>
//       with the desk up (each work's effect applied once through the inbox), recovers what an
//       earlier run left unfinished, posts <live> new works (one every 20 ms), and redrives every dead letter at
//       <rate> a second beside them; the store passes ResponderChainTesting's crash points
//       around each redrive batch (`beforeCommit`, `afterCommitBeforeReturn`) and the process
//       kills itself with SIGKILL at <point>'s <occurrence>th pass.
//
// Standard output: `redriven <count> in <seconds>` after a redrive that was not cut short.
// Exit status: 0 after a clean run, 3 if the crash point was never reached, 4 if a clean run
// shut down with work left, 64 for a bad command line, 1 for any other error.
import Foundation
import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import ResponderChainTesting

let arguments = Array(CommandLine.arguments.dropFirst())
let usage =
    "usage: sqlite-redrive-child <database> seed <count> | <database> redrive <rate> <live> <point|none> <occurrence>"
guard arguments.count >= 3 else {
    CrashInjection.writeLine(usage, to: 2)
    exit(64)
}

do {
    var events = StoredEvents()
    try events.register(CrashSuite.Work.self, as: "work")
    let sqlite = try SQLitePostStore(path: arguments[0], events: events, durability: .processCrash)
    try await sqlite.write { db, _ in try db.execute(sql: RedriveDesk.schema) }

    switch (arguments[1], arguments.count) {
    case ("seed", 3):
        guard let count = Int(arguments[2]) else {
            CrashInjection.writeLine(usage, to: 2)
            exit(64)
        }
        let system = EventSystem(storage: .store(sqlite))
        let desk = RedriveDesk(system: system, store: sqlite, up: false)
        try system.register(desk, as: "work")
        var tickets: [Ticket] = []
        for seq in 0..<count {
            let work = CrashSuite.Work(seq: seq)
            tickets.append(await desk.post(work, key: work.key))
        }
        for ticket in tickets { _ = await ticket.outcome }
        _ = await system.shutDown(gracePeriod: .seconds(30))
        exit(0)
    case ("redrive", 6):
        guard let rate = Int(arguments[2]), let live = Int(arguments[3]), let occurrence = Int(arguments[5])
        else {
            CrashInjection.writeLine(usage, to: 2)
            exit(64)
        }
        let point = arguments[4] == "none" ? nil : CrashPoint(rawValue: arguments[4])
        if arguments[4] != "none", point == nil {
            CrashInjection.writeLine("unknown crash point \(arguments[4]); \(usage)", to: 2)
            exit(64)
        }
        let trigger = CrashTrigger(point: point, occurrence: occurrence)
        let system = EventSystem(storage: .store(CrashingPostStore(wrapping: sqlite, trigger: trigger)))
        let desk = RedriveDesk(system: system, store: sqlite, up: true)
        try system.register(desk, as: "work")
        _ = try await system.recoverStoredPosts()
        // Live traffic beside the redrive: new works, numbered after every earlier run's.
        let first =
            try await sqlite.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM responder_post") }
            ?? 0
        let posting = Task {
            var tickets: [Ticket] = []
            for seq in 0..<live {
                let work = CrashSuite.Work(seq: 1_000_000 + first + seq)
                tickets.append(await desk.post(work, key: work.key))
                // One every 20 ms: traffic that flows while the redrive runs, not a burst before it.
                try? await system.clock.sleep(for: .milliseconds(20))
            }
            return tickets
        }
        let started = system.now
        let redriven = try await system.redriveDeadLetters(perSecond: rate)
        let elapsed = system.now - started
        for ticket in await posting.value { _ = await ticket.outcome }
        try await waitUntil("every post in the file has ended", observing: system) {
            (try? await sqlite.unfinished().isEmpty) == true
        }
        let report = await system.shutDown(gracePeriod: .seconds(30))
        if trigger.isArmed {
            CrashInjection.writeLine(
                "\(arguments[4]) not reached after \(trigger.passes) passes (\(report))", to: 2)
            exit(3)
        }
        guard report.kept == 0, report.endedEarly == 0 else {
            CrashInjection.writeLine("shut down with work left (\(report))", to: 2)
            exit(4)
        }
        let (seconds, attoseconds) = elapsed.components
        CrashInjection.writeLine(
            "redriven \(redriven) in \(Double(seconds) + Double(attoseconds) / 1e18)", to: 1)
        exit(0)
    default:
        CrashInjection.writeLine(usage, to: 2)
        exit(64)
    }
} catch {
    CrashInjection.writeLine("\(error)", to: 2)
    exit(1)
}
