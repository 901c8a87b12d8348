// The PostgreSQL store's benchmark rows (Docs/Benchmarks.md, "PostgreSQL store"), release build:
//
//   swift run -c release --package-path Integrations/ResponderChainPostgres postgres-bench [--quick]
//
// On the server RESPONDERCHAIN_POSTGRES_URL names, or a throwaway cluster that scripts/pg-cluster
// starts (PostgreSQL's initdb must be installed); with neither, it prints "skipped: no PostgreSQL"
// and succeeds. Each row runs on a new database:
//
// - raw postgres-nio: the same batches of inserts, SKIP LOCKED claims and updates of finished rows,
//   two consumer connections, no ResponderChain (the ratio column's baseline);
// - the store with its consumers in this process, and in two consumer processes (this executable
//   again, as `postgres-bench consume …`), events per second end to end (accepted → handled →
//   finished, as the producer hears it) and the latency of each;
// - the same two processes at a fixed rate, for the latency when the consumers keep up;
// - jobs that take 1 ms, producers and consumers at once (the workload of
//   hardbyte/postgresql-job-queue-benchmarking);
// - the wake of idle consumers: one post at a time.
import Foundation
import PostgresNIO

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "consume" {
    try await ConsumerProcess.main(Array(arguments.dropFirst()))
    exit(0)
}
let quick = arguments.contains("--quick")
/// `--claim N`: each consumer's `startConsuming(claimingUpTo:)` (256 by default).
let claimLimit =
    arguments.firstIndex(of: "--claim").flatMap { arguments.dropFirst($0 + 1).first }.flatMap { Int($0) }
    ?? 256
let server: BenchServer
switch BenchServer.locate() {
case .success(let found): server = found
case .failure(let unavailable):
    print("skipped: no PostgreSQL (\(unavailable.reason))")
    exit(0)
}

/// Runs `body` on a new database.
func onNewDatabase<T: Sendable>(_ body: (PostgresClient, String) async throws -> T) async throws -> T {
    let database = try await server.newDatabase()
    return try await withClient(server.configuration(database: database)) { client in
        try await body(client, database)
    }
}

let events = quick ? 1_000 : 20_000
let keys = quick ? 100 : 1_000
let throughput = Workload(events: events, keys: keys, batch: 100)
var paced = Workload(events: quick ? 600 : 15_000, keys: keys, batch: 30)
paced.rate = 3_000
var jobs = Workload(events: quick ? 300 : 10_000, keys: quick ? 300 : 10_000, batch: 10, producers: 2)
jobs.workMicroseconds = 1_000
let wakes = quick ? 10 : 50

print(
    "postgres-bench\(quick ? " --quick" : ""): \(ProcessInfo.processInfo.activeProcessorCount) CPUs, server \(server.host):\(server.port), consumers claim up to \(claimLimit)"
)
var results: [BenchResult] = []
let raw = try await onNewDatabase { client, _ in
    try await RawBaseline.run(throughput, consumers: 2, on: client)
}
results.append(raw)
results.append(
    try await onNewDatabase { client, database in
        try await StoreScenario(
            server: server, database: database, client: client, consumers: .inProcess(1),
            claimLimit: claimLimit
        )
        .run("store, 1 process (producer and consumer)", throughput)
    })
results.append(
    try await onNewDatabase { client, database in
        try await StoreScenario(
            server: server, database: database, client: client, consumers: .processes(2),
            claimLimit: claimLimit
        )
        .run("store, 2 consumer processes", throughput)
    })
var pacedResult = try await onNewDatabase { client, database in
    try await StoreScenario(
        server: server, database: database, client: client, consumers: .processes(2), claimLimit: claimLimit
    )
    .run("store, 2 consumer processes, offered 3,000/s", paced)
}
pacedResult.note = "batches of 30 every 10 ms"
results.append(pacedResult)
var jobsResult = try await onNewDatabase { client, database in
    try await StoreScenario(
        server: server, database: database, client: client, consumers: .processes(2), claimLimit: claimLimit
    )
    .run("1 ms jobs, 2 producers, 2 consumer processes", jobs)
}
jobsResult.note = "published, 4 CPUs: River 501 jobs/s, Oban 284 jobs/s"
results.append(jobsResult)
let (posted, woken) = try await onNewDatabase { client, database in
    try await StoreScenario(
        server: server, database: database, client: client, consumers: .processes(2), claimLimit: claimLimit
    )
    .wake(wakes)
}
results.append(posted)
results.append(woken)

print(BenchResult.header)
for (index, result) in results.enumerated() {
    let isThroughput = index < 5
    print(result.row(baseline: isThroughput && index > 0 ? raw.eventsPerSecond : nil))
}
