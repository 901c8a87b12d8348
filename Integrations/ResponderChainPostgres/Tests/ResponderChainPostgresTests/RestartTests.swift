import Foundation
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite("After a server restart the store works again by itself", .timeLimit(.minutes(1)))
struct RestartTests {
    @Test("pg_ctl restart: operations resume, the listener listens again and signals resume")
    func resumes() async throws {
        guard ProcessInfo.processInfo.environment["RESPONDERCHAIN_POSTGRES_URL"] == nil else { return }
        // A cluster of its own: restarting the shared one would break the other suites' tests.
        let server = try await TestServer.startCluster()
        do {
            try await restartAndResume(on: server)
        } catch {
            try? await TestServer.stopCluster(server)
            throw error
        }
        try await TestServer.stopCluster(server)
    }

    func restartAndResume(on server: TestServer.Location) async throws {
        try await withDatabase(on: server) { client, _ in
            let store = try await migratedStore(client, lease: .seconds(3))
            let signals = store.signals()
            try await whileRunning(store) {
                var iterator = signals.makeAsyncIterator()
                #expect(await iterator.next() == .posted)
                let pid = try await eventually("the listener to listen") { store.listenerProcessID }
                try await TestServer.restartCluster(server)
                // Every consumer's connections broke: the first operations may fail, typed.
                do {
                    _ = try await store.unfinished()
                } catch let error as PostgresPostStoreError {
                    guard case .unreachable = error else {
                        Issue.record("expected unreachable, got \(error)")
                        return
                    }
                }
                let post = samplePost(1)
                _ = try await eventually("a store to succeed after the restart") {
                    try await store.store([post])
                }
                _ = try await eventually("the listener to listen again") {
                    store.listenerProcessID.flatMap { $0 == pid ? nil : $0 }
                }
                try await store.finish([.init(id: post.id, outcome: .init(kind: .handled, description: ""))])
                var heard = false
                while let signal = await iterator.next() {
                    if signal == .finished([post.id]) {
                        heard = true
                        break
                    }
                }
                #expect(heard)
            }
        }
    }
}
