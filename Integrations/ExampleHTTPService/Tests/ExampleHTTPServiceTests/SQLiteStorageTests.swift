import ExampleHTTPService
import Foundation
import ResponderChain
import ResponderChainSQLite
import ResponderChainTesting
import ServiceLifecycle
import Testing

// In the serialized suite of the other server tests: they share the process's tracing backend
// and two cores.
extension OrderServiceTests {
    /// The service with its posted orders in an SQLite file, in this process.
    @Suite("The order service on an SQLite file")
    struct SQLiteStorageTests {
        /// A fresh directory for one test's file, removed with it.
        final class Directory: Sendable {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "orders-\(UUID().uuidString)")
            init() throws {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            }
            deinit { try? FileManager.default.removeItem(at: url) }
            var file: String { url.appendingPathComponent("orders.sqlite").path }
        }

        static func booked(_ running: RunningService) async throws -> BookedReply {
            let response = try #require(
                await RawHTTPClient.request(port: running.port, method: "GET", path: "/orders/booked")
                    .response)
            return try JSONDecoder().decode(BookedReply.self, from: Data(response.body.utf8))
        }

        static func eventID(_ response: RawResponse) throws -> String {
            try #require(try JSONDecoder().decode(OrderReply.self, from: Data(response.body.utf8)).eventID)
        }

        @Test("A retry with the same Idempotency-Key answers 202 with the first post and books nothing more")
        func aRetryIsNotASecondOrder() async throws {
            let directory = try Directory()
            try await RunningService.with(configure: { $0.storage = .sqlite(path: directory.file) }) {
                running in
                let first = try #require(
                    await running.order("/orders/async", requestID: "r-1", idempotencyKey: "k-1").response)
                #expect(first.status == 202)
                let retry = try #require(
                    await running.order("/orders/async", requestID: "r-2", idempotencyKey: "k-1").response)
                #expect(retry.status == 202)
                #expect(try Self.eventID(retry) == Self.eventID(first))
                let other = try #require(
                    await running.order("/orders/async", requestID: "r-3", idempotencyKey: "k-2").response)
                #expect(try Self.eventID(other) != Self.eventID(first))

                let booked = try await CrashRestartTests.bookedOnceSettled(
                    port: running.port, including: [try Self.eventID(first), try Self.eventID(other)])
                #expect(booked.orders.compactMap(\.requestID).sorted() == ["r-1", "r-3"])
            }
        }

        @Test("The admin routes list the stored dead letters and redrive them by filter, behind the token")
        func adminRoutesListAndRedrive() async throws {
            let directory = try Directory()
            try await RunningService.with(configure: {
                $0.storage = .sqlite(path: directory.file)
                $0.adminToken = "s3cret"
            }) { running in
                let admin = [("Authorization", "Bearer s3cret")]
                func call(_ method: String, _ path: String, headers: [(String, String)] = admin) async throws
                    -> RawResponse
                {
                    try #require(
                        await RawHTTPClient.request(
                            port: running.port, method: method, path: path, headers: headers
                        )
                        .response)
                }
                // An order of an article nobody sells: posted, unhandled, a dead letter in the file.
                let posted = try #require(
                    await running.order("/orders/async", sku: "Z-9", user: "bob").response)
                #expect(posted.status == 202)
                let id = try Self.eventID(posted)
                var letters: [DeadLetterReply.Letter] = []
                try await waitUntil("the order is a stored dead letter", observing: running.service.system) {
                    let answer = try? await call("GET", "/admin/dead-letters?outcome=unhandled")
                    letters =
                        (try? JSONDecoder().decode(
                            DeadLetterReply.self, from: Data((answer?.body ?? "").utf8)))?
                        .letters ?? letters
                    return letters.map(\.eventID) == [id]
                }
                #expect(letters.first?.key == "user-bob")
                #expect(letters.first?.outcome == "unhandled")

                #expect(try await call("GET", "/admin/dead-letters", headers: []).status == 401)
                #expect(
                    try await call("GET", "/admin/dead-letters", headers: [("Authorization", "Bearer no")])
                        .status == 401)
                #expect(try await call("GET", "/admin/dead-letters?outcome=exploded").status == 400)
                #expect(try await call("POST", "/admin/dead-letters/redrive?rate=0").status == 400)
                let none = try await call("POST", "/admin/dead-letters/redrive?key=user-alice")
                #expect(try JSONDecoder().decode(RedriveReply.self, from: Data(none.body.utf8)).redriven == 0)
                let redriven = try await call("POST", "/admin/dead-letters/redrive?key=user-bob")
                #expect(redriven.status == 200)
                #expect(
                    try JSONDecoder().decode(RedriveReply.self, from: Data(redriven.body.utf8)).redriven == 1)
                // Still nobody sells it: it comes back a dead letter, under the same identifier.
                try await waitUntil(
                    "the redriven order is a dead letter again", observing: running.service.system
                ) {
                    let answer = try? await call("GET", "/admin/dead-letters")
                    return answer?.body.contains(id) == true
                }
            }
        }

        @Test("Orders are booked in the file, and a restart on it keeps them and the stock sold")
        func ordersLiveInTheFile() async throws {
            let directory = try Directory()
            let configure: (inout OrderServiceConfiguration) -> Void = {
                $0.storage = .sqlite(path: directory.file)
                $0.stock = ["C-3": 10]
            }
            try await RunningService.with(configure: configure) { running in
                #expect(await running.order(sku: "C-3", quantity: 4).response?.status == 201)
                #expect(await running.order("/orders/async", sku: "C-3", quantity: 5).response?.status == 202)
                #expect(
                    await running.order("/orders/direct", sku: "C-3", quantity: 1).response?.status == 201)
                #expect(await running.order("/orders/direct", sku: "Z-9").response?.status == 422)
                await running.service.group.triggerGracefulShutdown()
                let report = try #require(await running.shutdownReport())
                #expect(report.endedEarly == 0)
            }
            try await RunningService.with(configure: configure) { running in
                #expect(running.service.recoveredPosts == 0)
                let booked = try await Self.booked(running)
                #expect(booked.orders.map(\.quantity) == [4, 5, 1])
                #expect(booked.orders.map(\.user) == ["alice", "alice", "alice"])
                #expect(booked.orders.filter { $0.eventID != nil }.count == 2)  // the direct one has no event
                #expect(try await running.service.book.booked?.available("C-3") == 0)
                let tooMany = try #require(await running.order(sku: "C-3").response)
                #expect(tooMany.body.contains("failed: OutOfStock"))
            }
        }

        @Test(
            "A post left in the file by a run that ended is delivered before the next run serves, and booked once"
        )
        func recoveryBeforeServing() async throws {
            let directory = try Directory()
            // What a killed run leaves: a post stored and not finished; and one handled, not yet marked finished.
            let store = try SQLitePostStore(path: directory.file, events: OrderBook.storedEvents)
            let booked = try await BookedOrders(store: store, stock: ["A-1": 100])
            let left = try await store.write { _, outbox in
                try outbox.post(
                    PostedOrder(sku: "A-1", quantity: 1, user: "ann", requestID: "left"),
                    to: OrderBook.entryName,
                    key: "user-ann")
            }
            let handled = try await store.write { _, outbox in
                try outbox.post(
                    PostedOrder(sku: "A-1", quantity: 2, user: "bob", requestID: "handled"),
                    to: OrderBook.entryName,
                    key: "user-bob")
            }
            #expect(
                try await booked.book(
                    PlaceOrder(sku: "A-1", quantity: 2), user: "bob", requestID: "handled", eventID: handled)
                    != nil)

            try await RunningService.with(configure: { $0.storage = .sqlite(path: directory.file) }) {
                running in
                #expect(running.service.recoveredPosts == 2)
                let settled = try await CrashRestartTests.bookedOnceSettled(
                    port: running.port, including: [left.debugDescription, handled.debugDescription])
                #expect(settled.orders.map(\.requestID) == ["handled", "left"])
                #expect(try await running.service.book.booked?.available("A-1") == 97)

            }
        }

        @Test("In memory too, a posted order carries its user and request to the book, in the event")
        func aPostedOrderCarriesItsRequestInMemory() async throws {
            try await RunningService.with { running in
                let answer = try #require(
                    await running.order("/orders/async", quantity: 3, user: "dee", requestID: "r-9").response)
                #expect(answer.status == 202)
                let booked = try await CrashRestartTests.bookedOnceSettled(
                    port: running.port, including: [try Self.eventID(answer)])
                #expect(booked.recovered == 0)
                #expect(
                    booked.orders == [
                        PlacedOrder(
                            number: 1, sku: "A-1", quantity: 3, user: "dee", requestID: "r-9",
                            eventID: try Self.eventID(answer))
                    ])
            }
        }

        @Test(
            "The storage is read from the environment, and a value it does not know is a typed error",
            arguments: [
                ([:], OrderStorage.memory),
                (["ORDERS_STORAGE": "memory"], .memory),
                (["ORDERS_STORAGE": "sqlite"], .sqlite(path: "orders.sqlite")),
                (
                    [
                        "ORDERS_STORAGE": "sqlite", "ORDERS_SQLITE_PATH": "/tmp/o.db",
                        "ORDERS_SQLITE_DURABILITY": "power-loss",
                    ],
                    .sqlite(path: "/tmp/o.db", durability: .powerLoss)
                ),
                (
                    [
                        "ORDERS_STORAGE": "postgres", "ORDERS_POSTGRES_URL": "postgres://orders@db:5433/shop",
                        "ORDERS_POSTGRES_LEASE_MS": "1500", "ORDERS_POSTGRES_CONSUMER": "a",
                    ],
                    .postgres(
                        PostgresOrderStorage(
                            url: "postgres://orders@db:5433/shop", lease: .milliseconds(1500), consumer: "a"))
                ),
            ] as [([String: String], OrderStorage)])
        func storageFromTheEnvironment(environment: [String: String], expected: OrderStorage) throws {
            #expect(try OrderStorage(environment: environment) == expected)
        }

        @Test("An unknown storage setting is refused with its variable named")
        func unknownSettings() {
            #expect(throws: OrderStorageError.unknownValue("mongodb", of: "ORDERS_STORAGE")) {
                try OrderStorage(environment: ["ORDERS_STORAGE": "mongodb"])
            }
            #expect(throws: OrderStorageError.missingValue(of: "ORDERS_POSTGRES_URL")) {
                try OrderStorage(environment: ["ORDERS_STORAGE": "postgres"])
            }
            #expect(throws: OrderStorageError.unknownValue("0", of: "ORDERS_POSTGRES_LEASE_MS")) {
                try OrderStorage(environment: [
                    "ORDERS_STORAGE": "postgres", "ORDERS_POSTGRES_URL": "postgres://u@h/d",
                    "ORDERS_POSTGRES_LEASE_MS": "0",
                ])
            }
            #expect(throws: OrderStorageError.unknownValue("fast", of: "ORDERS_SQLITE_DURABILITY")) {
                try OrderStorage(environment: [
                    "ORDERS_STORAGE": "sqlite", "ORDERS_SQLITE_DURABILITY": "fast",
                ])
            }
        }
    }
}
