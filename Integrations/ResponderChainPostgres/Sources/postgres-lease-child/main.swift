// The crash test's child process (Tests/ResponderChainPostgresTests/CrashTakeOverTests.swift): a
// consumer that claims every key it can on the database its arguments name, prints
//   claimed <posts> <smallest token>
// and then never finishes them (a handler that hangs), renewing its leases with its heartbeat
// until the test kills it with SIGKILL.
//
//   postgres-lease-child HOST PORT USER DATABASE LEASE_MILLISECONDS
import Foundation
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents

let arguments = CommandLine.arguments
guard arguments.count == 6, let port = Int(arguments[2]), let leaseMilliseconds = Int(arguments[5]) else {
    FileHandle.standardError.write(
        Data("usage: postgres-lease-child HOST PORT USER DATABASE LEASE_MS\n".utf8))
    exit(2)
}
let logger = Logger(label: "postgres-lease-child")
let client = PostgresClient(
    configuration: .init(
        host: arguments[1], port: port, username: arguments[3], password: nil, database: arguments[4],
        tls: .disable),
    backgroundLogger: logger)
// No event types: the posts it claims read back undecodable, which does not matter to a consumer
// that never handles them.
let store = try PostgresPostStore(
    client: client, events: StoredEvents(), consumer: "child-\(ProcessInfo.processInfo.processIdentifier)",
    lease: .milliseconds(leaseMilliseconds), logger: logger)

try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await client.run() }
    group.addTask { try await store.run() }
    let claimed = try await store.claim(limit: 100)
    let token = claimed.compactMap(\.lease?.token).min() ?? -1
    FileHandle.standardOutput.write(Data("claimed \(claimed.count) \(token)\n".utf8))
    // The handler that never ends: only SIGKILL stops this process.
    let (never, keptOpen) = AsyncStream.makeStream(of: Void.self)
    for await _ in never {}
    keptOpen.finish()
}
