import ExampleHTTPService
import ResponderChain
import ServiceLifecycle
import Synchronization
import Testing

/// 500 concurrent requests against the real server, and a graceful shutdown in their middle:
/// every request is accounted for, none is answered wrong, and the chain's report and dead letters
/// agree with the answers. (In the serialized suite of the other server tests.)
extension OrderServiceTests {
    static let burstRequests = 500
    /// The shutdown begins when this many answers have come back.
    static let shutdownAfter = 100

    @Test func everyRequestOfABurstIsAccountedForAcrossAGracefulShutdown() async throws {
        try await RunningService.with { running in
            let answered = Counter()
            let results = await withTaskGroup(of: (Int, RequestResult).self) { group in
                for index in 0..<Self.burstRequests {
                    group.addTask {
                        // Even requests await their outcome, odd ones are posted.
                        let result = await running.order(
                            index.isMultiple(of: 2) ? "/orders" : "/orders/async", requestID: "burst-\(index)"
                        )
                        if result.response != nil,
                            answered.value.add(1, ordering: .relaxed).newValue == Self.shutdownAfter
                        {
                            await running.service.group.triggerGracefulShutdown()
                        }
                        return (index, result)
                    }
                }
                var results: [Int: RequestResult] = [:]
                for await (index, result) in group { results[index] = result }
                return results
            }
            let report = try #require(await running.shutdownReport())

            // Every one of the 500 accounted for.
            #expect(results.count == Self.burstRequests)
            var sent = (handled: 0, other: 0)
            var posted = (accepted: 0, other: 0)
            var refused = 0
            var reset = 0
            for (index, result) in results {
                switch result {
                case .answered(let answer):
                    #expect(answer.headers["x-request-id"] == "burst-\(index)")
                    if index.isMultiple(of: 2) {
                        // An awaited send is answered 201 with its order: the chain still ran.
                        #expect(answer.status == 201, "request \(index): \(answer.status) \(answer.body)")
                        if answer.status == 201 { sent.handled += 1 } else { sent.other += 1 }
                    } else {
                        // A post is accepted: the chain stopped taking posts only after the server
                        // had answered its last request.
                        #expect(answer.status == 202, "request \(index): \(answer.status) \(answer.body)")
                        if answer.status == 202 { posted.accepted += 1 } else { posted.other += 1 }
                    }
                case .refusedAtConnect: refused += 1
                case .resetAfterConnect: reset += 1
                }
            }
            #expect(
                sent.handled + sent.other + posted.accepted + posted.other + refused + reset
                    == Self.burstRequests)
            #expect(sent.handled + posted.accepted >= Self.shutdownAfter)

            // The chain's report agrees: every accepted post was delivered, none refused or ended
            // early, so no dead letter; the book placed exactly the orders that were answered, so
            // no request that was reset or refused was processed.
            // (The report counts the posts still outstanding when the drain began.)
            #expect(report.endedEarly == 0)
            #expect(report.refused == 0)
            #expect(report.finished <= posted.accepted)
            #expect(running.record.deadLetters.load(ordering: .relaxed) == 0)
            #expect(await running.service.book.placedCount == sent.handled + posted.accepted)
            print(
                "burst: \(sent.handled) sends answered 201, \(posted.accepted) posts answered 202, "
                    + "\(refused) refused at connect, \(reset) reset after connect; chain: \(report)")
        }
    }
}

/// A count that concurrent tasks add to.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
