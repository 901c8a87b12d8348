import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite(
    "Signals: every consumer hears posts and finishes, and the listener comes back after losing its connection",
    .timeLimit(.minutes(1)))
struct ListenerTests {
    @Test("A post stored and finished by another consumer is signalled")
    func hearsOthers() async throws {
        try await withDatabase { client, _ in
            let listener = try await migratedStore(client, consumer: "listener")
            let other = try await migratedStore(client, consumer: "other")
            let signals = listener.signals()
            try await whileRunning(listener) {
                var iterator = signals.makeAsyncIterator()
                #expect(await iterator.next() == .posted)  // the catch-up after LISTEN
                let post = samplePost(1)
                _ = try await other.store([post])
                #expect(await iterator.next() == .posted)
                try await other.finish([.init(id: post.id, outcome: .init(kind: .handled, description: "ok"))]
                )
                #expect(await iterator.next(skippingPosted: ()) == .finished([post.id]))
            }
        }
    }

    @Test("Finishes of more ids than one notification holds arrive in several, all of them")
    func chunked() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            let signals = store.signals()
            try await whileRunning(store) {
                var iterator = signals.makeAsyncIterator()
                #expect(await iterator.next() == .posted)
                let posts = (0..<400).map { samplePost($0) }
                _ = try await store.store(posts)
                #expect(await iterator.next() == .posted)
                try await store.finish(
                    posts.map { .init(id: $0.id, outcome: .init(kind: .handled, description: "")) })
                var heard: [EventID] = []
                while heard.count < posts.count, let signal = await iterator.next() {
                    if case .finished(let ids) = signal { heard += ids }
                }
                #expect(Set(heard) == Set(posts.map(\.id)))
            }
        }
    }

    @Test(
        "The listening connection terminated by the server: the store listens again, says .posted, and signals resume"
    )
    func resumesAfterTermination() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client, lease: .seconds(3))
            let signals = store.signals()
            try await whileRunning(store) {
                var iterator = signals.makeAsyncIterator()
                #expect(await iterator.next() == .posted)
                let pid = try await eventually("the listener to listen") { store.listenerProcessID }
                try await client.query("SELECT pg_terminate_backend(\(pid))", logger: TestServer.quiet)
                // The catch-up of the new connection.
                #expect(await iterator.next() == .posted)
                let newPID = try #require(store.listenerProcessID)
                #expect(newPID != pid)
                let post = samplePost(1)
                _ = try await store.store([post])
                #expect(await iterator.next() == .posted)
                try await store.finish([.init(id: post.id, outcome: .init(kind: .handled, description: ""))])
                #expect(await iterator.next(skippingPosted: ()) == .finished([post.id]))
            }
        }
    }

    @Test(
        "A listening connection that goes silent (its backend stopped, no error, no close) is replaced within its health check"
    )
    func replacesSilentConnection() async throws {
        // Stopping a server process needs the server on this machine and the right to signal it.
        guard ProcessInfo.processInfo.environment["RESPONDERCHAIN_POSTGRES_URL"] == nil, geteuid() == 0 else {
            return
        }
        try await withDatabase { client, _ in
            let store = try await migratedStore(client, lease: .milliseconds(1500))
            let signals = store.signals()
            try await whileRunning(store) {
                var iterator = signals.makeAsyncIterator()
                #expect(await iterator.next() == .posted)
                let pid = try await eventually("the listener to listen") { store.listenerProcessID }
                // The backend stops answering, and says nothing: only a health check notices.
                #expect(kill(pid_t(pid), SIGSTOP) == 0)
                defer { kill(pid_t(pid), SIGCONT) }
                _ = try await eventually("the listener to listen on another connection", within: .seconds(10))
                {
                    store.listenerProcessID.flatMap { $0 == pid ? nil : $0 }
                }
                let post = samplePost(1)
                _ = try await store.store([post])
                try await store.finish([.init(id: post.id, outcome: .init(kind: .handled, description: ""))])
                #expect(await iterator.next(skippingPosted: ()) == .finished([post.id]))
            }
        }
    }

    @Test("Every signals() sequence finishes when run() ends, and one asked for after finishes at once")
    func finishWithRun() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            let signals = store.signals()
            let running = Task { try await store.run() }
            var iterator = signals.makeAsyncIterator()
            #expect(await iterator.next() == .posted)
            running.cancel()
            try await running.value
            while await iterator.next() != nil {}
            var late = store.signals().makeAsyncIterator()
            #expect(await late.next() == nil)
        }
    }
}
