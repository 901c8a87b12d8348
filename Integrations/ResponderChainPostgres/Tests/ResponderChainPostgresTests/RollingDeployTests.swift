import MetricsTestKit
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

/// The parcel event as the old binary knows it (schema version 1).
private struct ParcelV1: Event, Codable {
    let id: String
}

/// The parcel event as the new binary knows it (schema version 2).
private struct Parcel: Event, Codable, Equatable {
    let id: String
    let grams: Int
}

private func oldEvents() throws -> StoredEvents {
    var events = StoredEvents()
    try events.register(ParcelV1.self, as: "parcel")
    return events
}

private func newEvents() throws -> StoredEvents {
    var events = StoredEvents()
    try events.register(
        Parcel.self, as: "parcel", version: 2,
        upcasting: [EventUpcast(from: 1, ParcelV1.self) { Parcel(id: $0.id, grams: 0) }])
    return events
}

private func parcelPost(_ event: any Event, key: String) -> EventSystem.StoredPost {
    EventSystem.StoredPost(
        id: EventID(), key: EventSystem.OrderingKey(key), entry: "desk", payload: .event(event))
}

@Suite("Old and new binaries consume one database during a rolling deploy", .timeLimit(.minutes(1)))
struct RollingDeployTests {
    typealias Names = PostgresStoreMetrics

    @Test(
        "An old consumer leaves a key holding a post of a newer schema version for a new one, counts it, and claims the rest; the new one reads both versions"
    )
    func oldConsumerLeavesNewerRows() async throws {
        try await withDatabase { client, _ in
            let metrics = TestMetrics()
            let old = try PostgresPostStore(
                client: client, events: try oldEvents(), consumer: "old", logger: TestServer.quiet,
                metrics: PostgresStoreMetrics(factory: metrics, interval: .milliseconds(20)))
            let new = try PostgresPostStore(
                client: client, events: try newEvents(), consumer: "new", logger: TestServer.quiet,
                metrics: nil)
            try await old.migrate()
            // The old binary wrote one key; the new one wrote a version-1-shaped key's second
            // post in version 2, and a key of its own.
            let oldFirst = parcelPost(ParcelV1(id: "p-1"), key: "mixed")
            _ = try await old.store([oldFirst, parcelPost(ParcelV1(id: "p-2"), key: "old")])
            _ = try await new.store([
                parcelPost(Parcel(id: "p-3", grams: 300), key: "mixed"),
                parcelPost(Parcel(id: "p-4", grams: 400), key: "new"),
            ])

            let claimedByOld = try await old.claim(limit: 10)
            #expect(claimedByOld.map(\.key.name) == ["old"], "a key with a post too new stays whole")
            #expect(claimedByOld.allSatisfy { if case .event = $0.payload { true } else { false } })
            try await whileRunning(old) {
                try await eventually("the gauge to count the posts awaiting a newer reader") {
                    try? metrics.expectGauge(Names.postsAwaitingNewerReader).lastValue == 2 ? true : nil
                }
            }

            let claimedByNew = try await new.claim(limit: 10)
            #expect(Set(claimedByNew.map(\.key.name)) == ["mixed", "new"])
            let parcels = claimedByNew.compactMap { post -> Parcel? in
                guard case .event(let event) = post.payload else { return nil }
                return event as? Parcel
            }
            #expect(
                parcels == [
                    Parcel(id: "p-1", grams: 0), Parcel(id: "p-3", grams: 300), Parcel(id: "p-4", grams: 400),
                ],
                "in post order, the old row through its upcast")
        }
    }

    @Test(
        "Told that no newer reader is expected, the old consumer claims the newer post, and it comes back undecodable"
    )
    func deadLetterSetting() async throws {
        try await withDatabase { client, _ in
            let old = try PostgresPostStore(
                client: client, events: try oldEvents(), consumer: "old", logger: TestServer.quiet,
                metrics: nil,
                newerSchemaVersions: .deadLetter)
            let new = try PostgresPostStore(
                client: client, events: try newEvents(), consumer: "new", logger: TestServer.quiet,
                metrics: nil)
            try await old.migrate()
            _ = try await new.store([parcelPost(Parcel(id: "p-1", grams: 100), key: "k")])
            let claimed = try await old.claim(limit: 10)
            guard case .undecodable(let row) = try #require(claimed.first).payload else {
                Issue.record("the newer post read: \(claimed)")
                return
            }
            #expect(row.schemaVersion == 2)
            #expect(row.reason.contains("this binary reads up to 1"))
        }
    }
}
