import ExampleHTTPService
import Foundation
import Logging
import PostgresNIO
import ResponderChain
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// In the serialized suite of the other server tests: they share two cores.
extension OrderServiceTests {
    /// Two instances of the service on one PostgreSQL database, one killed with SIGKILL in the
    /// middle of a burst of posted orders sent to both.
    @Suite(
        "Two instances of the order service on PostgreSQL lose no order when one is killed",
        .enabled(
            if: PostgresTestServer.isAvailable,
            "no PostgreSQL here: neither RESPONDERCHAIN_POSTGRES_URL nor initdb"),
        .timeLimit(.minutes(3)))
    struct TwoInstancesTests {
        /// How many orders the burst posts (alternately to each instance), and after how many 202
        /// answers from the first instance it is killed.
        static let orders = 400
        static let killAfter = 60
        static let users = (0..<8).map { "user\($0)" }

        struct Answer: Sendable {
            let requestID: String
            let instance: Int
            let result: RequestResult
        }

        @Test(
            "Every order answered 202 by either instance is booked exactly once, the survivor takes over the dead one's keys after its lease, and its /metrics shows the store's counters"
        )
        func survivorTakesOver() async throws {
            let url = try await PostgresTestServer.newDatabaseURL()
            let urlText = try #require(url.string)
            let environment = [
                "ORDERS_STORAGE": "postgres", "ORDERS_POSTGRES_URL": urlText,
                "ORDERS_POSTGRES_LEASE_MS": "1000",
                "ORDERS_POSTGRES_METRICS_INTERVAL_MS": "200", "ORDERS_SPANS": "0", "ORDERS_METRICS": "0",
            ]
            let firstEnvironment = environment.merging(["ORDERS_POSTGRES_CONSUMER": "first"]) { $1 }
            let secondEnvironment = environment.merging(["ORDERS_POSTGRES_CONSUMER": "second"]) { $1 }
            async let startingFirst = ServiceProcess.start(environment: firstEnvironment)
            async let startingSecond = ServiceProcess.start(environment: secondEnvironment)
            let (first, second) = try await (startingFirst, startingSecond)
            defer { if second.process.isRunning { second.send(SIGKILL) } }
            defer { if first.process.isRunning { first.send(SIGKILL) } }
            let ports = [first.port, second.port]

            try await withDatabase(url) { client in
                // The load: one client per user, each sending its orders one after the other to one
                // instance (the even users to the first). Once the first answered `killAfter` 202s,
                // it is killed while it holds a key with a post it booked and has not recorded as
                // finished; its clients' later requests are refused.
                let acceptedByFirst = Tally()
                var answers: [Answer] = []
                var dead: DeadInstance?
                try await withThrowingTaskGroup(of: ([Answer], DeadInstance?).self) { group in
                    for user in Self.users.indices {
                        group.addTask {
                            var answers: [Answer] = []
                            var dead: DeadInstance?
                            let instance = user % 2
                            for index in stride(from: user, to: Self.orders, by: Self.users.count) {
                                let requestID = "order-\(index)"
                                let result = await RawHTTPClient.request(
                                    port: ports[instance], path: "/orders/async",
                                    headers: [("X-User", Self.users[user]), ("X-Request-ID", requestID)],
                                    body: #"{"sku":"A-1","quantity":1}"#)
                                answers.append(
                                    Answer(requestID: requestID, instance: instance, result: result))
                                if instance == 0, result.response?.status == 202,
                                    acceptedByFirst.add() == Self.killAfter
                                {
                                    dead = try await Self.kill(first, whileItHoldsKeysOn: client)
                                }
                            }
                            return (answers, dead)
                        }
                    }
                    for try await (some, killed) in group {
                        answers += some
                        dead = dead ?? killed
                    }
                }
                let exit = await first.exited()
                #expect(exit == ServiceProcess.Exit(bySignal: true, status: SIGKILL), "\(first.log)")
                let killed = try #require(
                    dead, "the first instance never held a key with a booked, unfinished post")
                // Its keys with posts: no one can release them, so the survivor waits for their
                // leases and takes them over.
                let deadKeys = killed.keys
                let claimedByTheDead = killed.claimed
                // The posts it had not claimed: only the survivor can book them.
                let leftByTheDead = killed.unclaimed

                var accepted: [String: String] = [:]  // request → event, for every 202
                for answer in answers {
                    guard let response = answer.result.response else { continue }
                    // Only the dead instance may leave a request unanswered or answer otherwise.
                    if answer.instance == 1 {
                        #expect(
                            response.status == 202, "\(answer.requestID): \(response.status) \(response.body)"
                        )
                    }
                    guard response.status == 202 else { continue }
                    let reply = try JSONDecoder().decode(OrderReply.self, from: Data(response.body.utf8))
                    let eventID = try #require(reply.eventID)
                    accepted[answer.requestID] = eventID
                }
                #expect(accepted.count >= Self.orders / 2 + Self.killAfter)
                #expect(accepted.count < Self.orders, "the kill came after the burst")

                let booked = try await Self.settled(
                    port: second.port, client: client, including: Set(accepted.values))
                var byEvent: [String: Int] = [:]
                var byRequest: [String: Int] = [:]
                for order in booked.orders {
                    byEvent[order.eventID ?? "none", default: 0] += 1
                    byRequest[order.requestID ?? "none", default: 0] += 1
                }
                for (requestID, eventID) in accepted {
                    #expect(byEvent[eventID] == 1, "order \(requestID) (\(eventID)) answered 202")
                }
                let fired = Set(answers.map(\.requestID))
                for (requestID, count) in byRequest {
                    #expect(fired.contains(requestID), "booked \(requestID), never posted")
                    #expect(count == 1, "\(requestID) booked \(count) times")
                }
                // What the dead left on its keys unclaimed, the survivor booked.
                for order in booked.orders where leftByTheDead.contains(order.eventID ?? "") {
                    #expect(
                        order.bookedBy == "second",
                        "\(order.eventID ?? "") booked by \(order.bookedBy ?? "none")")
                }

                // The survivor's /metrics: the store's counters and gauges, the takeovers counted.
                let metrics = try await Self.scrape(port: second.metricsPort)
                let takeovers = Self.value(
                    of: "responderchain_store_lease_expiries_total", labelled: #"kind="takeover""#,
                    in: metrics)
                let redelivered = Self.value(of: "responderchain_store_redelivered_posts_total", in: metrics)
                #expect(takeovers ?? -1 >= Double(deadKeys.count), "\(metrics)")
                #expect(redelivered ?? -1 >= Double(claimedByTheDead), "\(metrics)")
                #expect(Self.value(of: "responderchain_store_claimed_posts_total", in: metrics) ?? 0 > 0)
                #expect(Self.value(of: "responderchain_store_unfinished_posts", in: metrics) != nil)
                print(
                    "two instances: \(Self.orders) orders, \(accepted.count) answered 202, \(booked.orders.count) booked; "
                        + "the dead instance left \(deadKeys.count) keys with \(claimedByTheDead) posts claimed "
                        + "(\(killed.booked) booked) and "
                        + "\(leftByTheDead.count) not, the survivor counted \(takeovers ?? 0) takeovers "
                        + "and \(redelivered ?? 0) redeliveries")
            }
            second.send(SIGTERM)
            #expect(await second.exited() == ServiceProcess.Exit(bySignal: false, status: 0), "\(second.log)")
        }

        /// What the first instance held when it was killed.
        struct DeadInstance: Sendable {
            /// Its keys with unfinished posts.
            let keys: [String]
            /// How many of their unfinished posts had been claimed.
            let claimed: Int
            /// Their unfinished posts never claimed, as event identifiers.
            let unclaimed: Set<String>
            /// How many of their unfinished posts it had booked.
            let booked: Int
        }

        /// Kills `process` (the consumer `first`) with SIGKILL once it holds a live lease on a
        /// key with a post it booked and has not yet recorded as finished (so that the survivor
        /// delivers it again). It is stopped (SIGSTOP) while the database is read, and continued
        /// to try again a little later if there is no such post; returns what it held, or `nil`
        /// if it never held such a key within 20 s.
        static func kill(_ process: ServiceProcess, whileItHoldsKeysOn client: PostgresClient) async throws
            -> DeadInstance?
        {
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(20)
            while clock.now < deadline {
                process.send(SIGSTOP)
                let booked =
                    try await strings(
                        """
                        SELECT count(*)::text FROM responderchain_keys k
                        JOIN responderchain_posts p ON p.ordering_key = k.key AND p.finished_at IS NULL
                        JOIN example_booked_order o
                            ON o.event_id = lpad(to_hex(p.id_epoch), 16, '0') || '#' || p.id_sequence::text
                        WHERE k.owner = 'first' AND k.lease_until > now()
                        """, on: client
                    ).first.flatMap { Int($0) } ?? 0
                guard booked > 0 else {
                    process.send(SIGCONT)
                    try await Task.sleep(for: .milliseconds(5))
                    continue
                }
                let keys = try await strings(
                    """
                    SELECT k.key FROM responderchain_keys k WHERE k.owner = 'first' AND EXISTS (
                        SELECT 1 FROM responderchain_posts p WHERE p.ordering_key = k.key AND p.finished_at IS NULL)
                    """, on: client)
                let claimed =
                    try await strings(
                        """
                        SELECT count(*)::text FROM responderchain_posts p
                            JOIN responderchain_keys k ON k.key = p.ordering_key
                        WHERE p.finished_at IS NULL AND p.seq <= k.claimed_through AND p.ordering_key = ANY(\(keys))
                        """, on: client
                    ).first.flatMap { Int($0) } ?? 0
                let unclaimed = try await strings(
                    """
                    SELECT p.id_epoch::text || ':' || p.id_sequence::text FROM responderchain_posts p
                        JOIN responderchain_keys k ON k.key = p.ordering_key
                    WHERE p.finished_at IS NULL AND p.seq > k.claimed_through AND p.ordering_key = ANY(\(keys))
                    """, on: client
                ).compactMap(eventID)
                process.send(SIGKILL)
                return DeadInstance(keys: keys, claimed: claimed, unclaimed: Set(unclaimed), booked: booked)
            }
            process.send(SIGKILL)
            return nil
        }

        /// A count that several tasks add to.
        final class Tally: Sendable {
            private let count = Mutex(0)

            /// Adds one, and returns the count.
            func add() -> Int {
                count.withLock { count in
                    count += 1
                    return count
                }
            }
        }

        /// `epoch:sequence` (the columns' bit patterns) as an event's full identifier.
        static func eventID(_ columns: String) -> String? {
            let parts = columns.split(separator: ":")
            guard parts.count == 2, let epoch = Int64(parts[0]), let sequence = Int64(parts[1]) else {
                return nil
            }
            return EventID(epoch: UInt64(bitPattern: epoch), sequence: UInt64(bitPattern: sequence))
                .debugDescription
        }

        /// The booked orders once every event of `events` is booked and no post is unfinished,
        /// polled every 50 ms for at most 60 s.
        static func settled(port: Int, client: PostgresClient, including events: Set<String>) async throws
            -> BookedReply
        {
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            var last: BookedReply?
            while clock.now < deadline {
                let result = await RawHTTPClient.request(port: port, method: "GET", path: "/orders/booked")
                let response = try #require(result.response, "GET /orders/booked: \(result)")
                let booked = try JSONDecoder().decode(BookedReply.self, from: Data(response.body.utf8))
                let unfinished = try await strings(
                    "SELECT count(*)::text FROM responderchain_posts WHERE finished_at IS NULL", on: client)
                if unfinished == ["0"], events.isSubset(of: Set(booked.orders.compactMap(\.eventID))) {
                    return booked
                }
                last = booked
                try await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("not settled in 60 s: \(last.map { "\($0.orders.count) booked" } ?? "")")
            return try #require(last)
        }

        /// `GET /metrics`'s body.
        static func scrape(port: Int) async throws -> String {
            let result = await RawHTTPClient.request(port: port, method: "GET", path: "/metrics")
            let response = try #require(result.response, "GET /metrics: \(result)")
            #expect(response.status == 200)
            return response.body
        }

        /// The value of the first sample of `metric` whose labels contain `label` in `text` (the
        /// Prometheus text format).
        static func value(of metric: String, labelled label: String = "", in text: String) -> Double? {
            for line in text.split(separator: "\n")
            where line.hasPrefix(metric + "{") || line.hasPrefix(metric + " ") {
                guard label.isEmpty || line.contains(label), let value = line.split(separator: " ").last
                else {
                    continue
                }
                return Double(value)
            }
            return nil
        }

        /// The first column of `query`'s rows, as text.
        static func strings(_ query: PostgresQuery, on client: PostgresClient) async throws -> [String] {
            var values: [String] = []
            for try await (value, ) in try await client.query(query, logger: PostgresTestServer.quiet)
                .decode((String,).self)
            {
                values.append(value)
            }
            return values
        }

        /// Runs `body` with a running client on the database at `url`.
        func withDatabase<T: Sendable>(_ url: URLComponents, _ body: (PostgresClient) async throws -> T)
            async throws -> T
        {
            let client = PostgresClient(
                configuration: .init(
                    host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: url.user ?? "postgres",
                    password: url.password, database: String(url.path.dropFirst()), tls: .disable),
                backgroundLogger: PostgresTestServer.quiet)
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                return try await body(client)
            }
        }
    }
}
