import ExampleHTTPService
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// In the serialized suite of the other server tests: they share the process's tracing backend
// and two cores.
extension OrderServiceTests {
    /// The service on SQLite, killed with SIGKILL in the middle of a burst of posted orders and
    /// started again on the same file.
    @Suite("The order service on SQLite loses no order a SIGKILL interrupts")
    struct CrashRestartTests {
        /// How many orders the burst posts, and after how many 202 answers the service is killed.
        static let orders = 300
        static let killAfter = 60
        static let users = ["ann", "bob", "cid", "dee"]

        /// What one request of the burst got.
        struct Answer: Sendable {
            let requestID: String
            let result: RequestResult
        }

        @Test(
            "Every order answered 202 before the kill is booked exactly once after the restart, and nothing never posted is"
        )
        func everyAcceptedOrderIsBookedOnceAfterASIGKILL() async throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("orders-crash-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let environment = [
                "ORDERS_STORAGE": "sqlite",
                "ORDERS_SQLITE_PATH": directory.appendingPathComponent("orders.sqlite").path,
                "ORDERS_SPANS": "0", "ORDERS_METRICS": "0",
            ]

            // The burst, and the kill once `killAfter` orders were answered 202.
            let first = try await ServiceProcess.start(environment: environment)
            var answers: [Answer] = []
            var acceptedBeforeKill = 0
            await withTaskGroup(of: Answer.self) { group in
                for index in 0..<Self.orders {
                    group.addTask {
                        let requestID = "order-\(index)"
                        let result = await RawHTTPClient.request(
                            port: first.port, path: "/orders/async",
                            headers: [
                                ("X-User", Self.users[index % Self.users.count]), ("X-Request-ID", requestID),
                            ],
                            body: #"{"sku":"A-1","quantity":1}"#)
                        return Answer(requestID: requestID, result: result)
                    }
                }
                for await answer in group {
                    answers.append(answer)
                    if answer.result.response?.status == 202 {
                        acceptedBeforeKill += 1
                        if acceptedBeforeKill == Self.killAfter { first.send(SIGKILL) }
                    }
                }
            }
            // The kill landed: the child died of SIGKILL, in the middle of the burst.
            let exit = await first.exited()
            #expect(exit == ServiceProcess.Exit(bySignal: true, status: SIGKILL), "\(first.log)")
            var accepted: [String: String] = [:]  // request → event, for every 202
            for answer in answers {
                guard let response = answer.result.response else { continue }
                #expect(response.status == 202, "\(answer.requestID): \(response.status) \(response.body)")
                let reply = try JSONDecoder().decode(OrderReply.self, from: Data(response.body.utf8))
                let eventID = try #require(reply.eventID)
                accepted[answer.requestID] = eventID
            }
            #expect(accepted.count >= Self.killAfter)
            #expect(accepted.count < Self.orders, "the kill came after the burst: \(accepted.count) answered")

            // The restart on the same file: it delivers what the first run left, then listens.
            let second = try await ServiceProcess.start(environment: environment)
            defer { if second.process.isRunning { second.send(SIGKILL) } }
            let booked = try await Self.bookedOnceSettled(port: second.port, including: Set(accepted.values))

            // Every 202 booked once, under its event and its request; nothing never posted booked.
            var bookingsByEvent: [String: Int] = [:]
            var bookingsByRequest: [String: Int] = [:]
            for order in booked.orders {
                bookingsByEvent[order.eventID ?? "none", default: 0] += 1
                bookingsByRequest[order.requestID ?? "none", default: 0] += 1
            }
            for (requestID, eventID) in accepted {
                #expect(bookingsByEvent[eventID] == 1, "order \(requestID) (\(eventID)) answered 202")
                #expect(bookingsByRequest[requestID] == 1, "order \(requestID) answered 202")
            }
            let fired = Set(answers.map(\.requestID))
            for (requestID, count) in bookingsByRequest {
                #expect(fired.contains(requestID), "booked \(requestID), never posted")
                #expect(count == 1, "\(requestID) booked \(count) times")
            }
            for (eventID, count) in bookingsByEvent {
                #expect(count == 1, "event \(eventID) booked \(count) times")
            }
            #expect(booked.outstanding == 0)
            let lostInFlight = booked.orders.count - accepted.count
            print(
                "crash test: \(Self.orders) orders, \(accepted.count) answered 202 before the SIGKILL, "
                    + "\(booked.orders.count) booked after the restart (\(lostInFlight) posted without an answer), "
                    + "\(booked.recovered) delivered again by the restart")

            second.send(SIGTERM)
            #expect(await second.exited() == ServiceProcess.Exit(bySignal: false, status: 0), "\(second.log)")
        }

        /// The booked orders, once every event in `events` is booked and the chain holds no post,
        /// read from `GET /orders/booked` every 20 ms for at most 60 s (the condition, not the time,
        /// ends the wait).
        static func bookedOnceSettled(port: Int, including events: Set<String>) async throws -> BookedReply {
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            var last: BookedReply?
            while clock.now < deadline {
                let result = await RawHTTPClient.request(port: port, method: "GET", path: "/orders/booked")
                let response = try #require(result.response, "GET /orders/booked: \(result)")
                let booked = try JSONDecoder().decode(BookedReply.self, from: Data(response.body.utf8))
                if booked.outstanding == 0, events.isSubset(of: Set(booked.orders.compactMap(\.eventID))) {
                    return booked
                }
                last = booked
                try await Task.sleep(for: .milliseconds(20))
            }
            Issue.record(
                "not settled in 60 s: \(last.map { "\($0.orders.count) booked, \($0.outstanding) outstanding" } ?? "")"
            )
            return try #require(last)
        }
    }
}
