import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

/// Numbers for Docs/Durability.md, printed, never gated (the machine's load decides them).
@Suite(
    "Measured: claims per second and the time a signal takes to wake another consumer",
    .timeLimit(.minutes(1)))
struct MeasurementTests {
    @Test("Two consumers drain 2,000 posts on 200 keys (claim 64, finish, release): posts per second")
    func drain() async throws {
        try await withDatabase { client, _ in
            let writer = try await migratedStore(client)
            let posts = (0..<2000).map { samplePost($0, key: .init("key-\($0 % 200)")) }
            _ = try await writer.store(posts)
            let clock = ContinuousClock()
            let start = clock.now
            let claims = try await withThrowingTaskGroup(of: Int.self) { group in
                for name in ["a", "b"] {
                    let store = try await migratedStore(client, consumer: name)
                    group.addTask {
                        var claims = 0
                        while true {
                            let claimed = try await store.claim(limit: 64)
                            guard !claimed.isEmpty else { return claims }
                            claims += 1
                            try await store.finish(
                                claimed.map {
                                    .init(
                                        id: $0.id, outcome: .init(kind: .handled, description: ""),
                                        lease: $0.lease)
                                })
                            try await store.release(Array(Set(claimed.compactMap(\.lease))))
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print(
                "measured: 2 consumers drained 2000 posts in \(claims) claims in \(elapsed): \(Int(2000 / seconds)) posts/s, \(Int(Double(claims) / seconds)) claim+finish+release rounds/s"
            )
            #expect(try await writer.unfinished().isEmpty)
        }
    }

    @Test("A post stored by one consumer wakes another's signals: median and worst of 50")
    func wakeLatency() async throws {
        try await withDatabase { client, _ in
            let poster = try await migratedStore(client, consumer: "poster")
            let listener = try await migratedStore(client, consumer: "listener")
            let signals = listener.signals()
            try await whileRunning(listener) {
                var iterator = signals.makeAsyncIterator()
                #expect(await iterator.next() == .posted)
                let clock = ContinuousClock()
                var samples: [Duration] = []
                for number in 0..<50 {
                    let start = clock.now
                    _ = try await poster.store([samplePost(number)])
                    _ = await iterator.next()
                    samples.append(start.duration(to: clock.now))
                }
                samples.sort()
                print(
                    "measured: store → .posted at another consumer: median \(samples[25]), worst \(samples[49]) (50 posts; the median includes the store's own commit)"
                )
            }
        }
    }
}
