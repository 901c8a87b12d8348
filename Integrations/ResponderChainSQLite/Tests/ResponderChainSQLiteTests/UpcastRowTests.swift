import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

/// The event as the old binary wrote it (schema version 1).
struct ReservationV1: Event, Codable {
    let order: String
}

/// The event as the new binary knows it (schema version 2): the order is an identifier and
/// the quantity, which version 1 did not have, is 1 for every old row.
struct Reservation: Event, Codable, Hashable {
    let id: String
    let quantity: Int
}

@Suite("A store written by an older binary is drained by a newer one through its upcasts")
struct UpcastRowTests {
    @Test(
        "Every post the old binary stored is delivered as the new type, handled once, and none is dead-lettered"
    )
    func drainedByTheNewBinary() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let count = 50

        // The old binary: version 1 of the event, under the name both binaries share.
        var old = StoredEvents()
        try old.register(ReservationV1.self, as: "reservation")
        let oldStore = try SQLitePostStore(path: path, events: old)
        let ids = try await oldStore.write { _, outbox in
            try (0..<count).map {
                try outbox.post(ReservationV1(order: "o-\($0)"), to: "desk", key: "orders")
            }
        }

        // The new binary opens the same file.
        var new = StoredEvents()
        try new.register(
            Reservation.self, as: "reservation", version: 2,
            upcasting: [EventUpcast(from: 1, ReservationV1.self) { Reservation(id: $0.order, quantity: 1) }])
        let store = try SQLitePostStore(path: path, events: new)
        let letters = DeadLetterRecorder()
        let system = EventSystem(deadLetters: letters.sink, storage: .store(store))
        let desk = ScriptedResponder("desk", .handle, root: true, system: system)
        try system.register(desk, as: "desk")
        #expect(try await system.recoverStoredPosts() == count)
        try await waitUntil("the old rows are handled", observing: system) { await desk.seen.count == count }

        let seen = await desk.seen
        #expect(seen.map(\.eventID) == ids)
        #expect(
            seen.map { $0.event as? Reservation }
                == (0..<count).map { Reservation(id: "o-\($0)", quantity: 1) })
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(letters.letters.isEmpty)
        #expect(try await store.unfinished().isEmpty)
        for id in ids { #expect(try await store.outcome(of: id)?.kind == .handled) }
    }
}
