import Foundation
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A consumer killed with SIGKILL loses its keys after its lease", .timeLimit(.minutes(1)))
struct CrashTakeOverTests {
    /// The child executable `name` beside the test bundle (the lease child may be at
    /// `RESPONDERCHAIN_POSTGRES_CHILD`).
    static func child(named name: String = "postgres-lease-child") throws -> URL {
        var candidates: [URL] = []
        if name == "postgres-lease-child",
            let path = ProcessInfo.processInfo.environment["RESPONDERCHAIN_POSTGRES_CHILD"]
        {
            candidates.append(URL(fileURLWithPath: path))
        }
        let products =
            Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
            + [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL].compactMap {
                $0
            }
        candidates += products.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw TestServer.ClusterFailed(
                message: "\(name) is not built; looked at \(candidates)")
        }
        return found
    }

    @Test(
        "The child's heartbeat keeps its key from this process; after SIGKILL this process takes it, with a larger token"
    )
    func takeOverAfterKill() async throws {
        try await withDatabase { client, configuration in
            let store = try await migratedStore(client, consumer: "survivor", lease: .seconds(1))
            let post = samplePost(1, key: "order-1")
            _ = try await store.store([post])

            let location = try await TestServer.location
            let output = FileManager.default.temporaryDirectory.appending(
                path: "postgres-lease-child-\(UInt64.random(in: 0...UInt64.max)).out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: output) }
            let process = Process()
            process.executableURL = try Self.child()
            process.arguments = [
                location.host, "\(location.port)", location.username, configuration.database ?? "", "1000",
            ]
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            var killed = false
            defer { if !killed { kill(pid, SIGKILL) } }

            let childToken = try await eventually("the child to claim") { () -> Int64? in
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                let parts = text.split(whereSeparator: \.isWhitespace)
                guard parts.count == 3, parts[0] == "claimed", parts[1] == "1" else { return nil }
                return Int64(parts[2])
            }
            // Three leases long, the child's heartbeat keeps the key from this process.
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: .seconds(3))
            while clock.now < end {
                #expect(try await store.claim(limit: 10).isEmpty)
                try await clock.sleep(for: .milliseconds(100))
            }
            kill(pid, SIGKILL)
            killed = true
            let killedAt = clock.now
            let taken = try await eventually("this process to take the key over") {
                let posts = try await store.claim(limit: 10)
                return posts.isEmpty ? nil : posts
            }
            print("measured: key taken over \(killedAt.duration(to: clock.now)) after SIGKILL (lease 1 s)")
            #expect(taken.map(\.id) == [post.id])
            #expect(try #require(taken.first?.lease).token > childToken)
        }
    }
}
