import RemoteOrders
import ResponderChain
@testable import ResponderChainGRPC
import ResponderChainTesting
import Synchronization
import Testing

/// A transport whose other side answers every request with `reply`, through the wire format's
/// bytes, as a peer of its own would.
private struct CannedReplyTransport: RemoteTransport {
    let reply: RemoteReply

    func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        try RemoteReply(serializedBytes: reply.serializedBytes())
    }

    func registryNames() async throws -> RemoteRegistryNames { RemoteRegistryNames(events: [], info: []) }
}

/// A transport that changes each request as a peer of its own might write it, then hands it,
/// through the wire format's bytes, to the entries of the other side.
private struct RewritingTransport: RemoteTransport {
    let entries: RemoteEntries
    let rewrite: @Sendable (inout RemoteRequest) -> Void

    func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        var request = request
        rewrite(&request)
        return await entries.reply(
            to: try RemoteRequest(serializedBytes: request.serializedBytes()), from: "peer")
    }

    func registryNames() async throws -> RemoteRegistryNames { RemoteRegistryNames(events: [], info: []) }
}

/// A reply of a valid handled outcome, changed by `change`.
private func reply(_ change: (inout WireOutcome) -> Void) -> RemoteReply {
    var outcome = WireOutcome(
        kind: "handled", hops: 2, captureHops: 1, handlers: [WireResponder(id: 1, label: "b0")],
        captureHandlerCount: 1, info: [], infoLeftBehind: [], responder: WireResponder(id: 1, label: "b0"),
        phase: "bubble")
    change(&outcome)
    return RemoteReply(body: .outcome(outcome))
}

/// A stop, valid but for `change`.
private func stop(_ change: (inout WireOutcome) -> Void) -> RemoteReply {
    reply { outcome in
        outcome.kind = "cancelled"
        outcome.hop = 1
        outcome.whileHandling = true
        outcome.stopReason = "taskCancelled"
        change(&outcome)
    }
}

/// A rejection, valid but for `change`.
private func rejection(_ change: (inout WireOutcome) -> Void) -> RemoteReply {
    reply { outcome in
        outcome.kind = "rejected"
        outcome.rejection = "limitReached"
        outcome.limit = 8
        change(&outcome)
    }
}

@Suite("Values read from the wire that do not fit end typed, naming the field; none stops the process")
struct WireValidationTests {
    @Test(
        "a reply with a value that does not fit ends the send interrupted at the link, unreadableReply naming the field",
        arguments: [
            ("WireOutcome.hops is -1", reply { $0.hops = -1 }),
            ("WireOutcome.hops is -9223372036854775808", reply { $0.hops = .min }),
            // Found by the test of the edges: this side adds its hops to the other side's.
            ("WireOutcome.hops is 9223372036854775807, over 2147483647", reply { $0.hops = .max }),
            ("WireOutcome.hops is 2147483648, over 2147483647", reply { $0.hops = 1 << 31 }),
            ("WireOutcome.captureHops is 3, outside 0...2 (hops)", reply { $0.captureHops = 3 }),
            ("WireOutcome.captureHops is -1, outside 0...2 (hops)", reply { $0.captureHops = -1 }),
            (
                "WireOutcome.captureHandlerCount is 2, outside 0...1 (handlers)",
                reply { $0.captureHandlerCount = 2 }
            ),
            (
                "WireOutcome.captureHandlerCount is -1, outside 0...1 (handlers)",
                reply { $0.captureHandlerCount = -1 }
            ),
            ("WireOutcome.kind \"exploded\" is not a kind of outcome", reply { $0.kind = "exploded" }),
            ("WireOutcome.phase \"sideways\" is not a pass", reply { $0.phase = "sideways" }),
            ("WireOutcome.hop is -1", stop { $0.hop = -1 }),
            ("WireOutcome.hop is 9223372036854775807, over 2147483647", stop { $0.hop = .max }),
            (
                "WireOutcome.hop is 2147483648, over 2147483647",
                reply {
                    $0.kind = "failed"; $0.hop = 1 << 31;
                    $0.error = RemoteHandlerError(type: "T", message: "m")
                }
            ),
            ("WireOutcome.hop is missing for a stop", stop { $0.hop = nil }),
            ("WireOutcome.whileHandling is missing for a stop", stop { $0.whileHandling = nil }),
            ("WireOutcome.stopReason is missing for a stop", stop { $0.stopReason = nil }),
            ("WireOutcome.stopReason \"bored\" is not a reason", stop { $0.stopReason = "bored" }),
            (
                "WireOutcome.hop is missing for a failure",
                reply {
                    $0.kind = "failed"
                    $0.error = RemoteHandlerError(type: "T", message: "m")
                }
            ),
            (
                "WireOutcome.error is missing for a failure",
                reply {
                    $0.kind = "failed"
                    $0.hop = 1
                }
            ),
            (
                "WireOutcome.hop is -5",
                reply {
                    $0.kind = "failed"; $0.hop = -5
                }
            ),
            ("WireOutcome.closedBy is missing for a cycle", reply { $0.kind = "cycleDetected" }),
            ("WireOutcome.limit is -1", rejection { $0.limit = -1 }),
            ("WireOutcome.limit is missing for the rejection \"limitReached\"", rejection { $0.limit = nil }),
            ("WireOutcome.rejection \"tired\" is not a reason", rejection { $0.rejection = "tired" }),
            ("WireOutcome.rejection is missing for a rejection", rejection { $0.rejection = nil }),
            (
                "RemoteReply.version is 4, outside 2...3 (the versions read here)",
                RemoteReply(version: 4, body: reply { _ in }.body)
            ),
            (
                "RemoteReply.version is 1, outside 2...3 (the versions read here)",
                RemoteReply(version: 1, body: reply { _ in }.body)
            ),
            (
                "RemoteRefusal.newerSchemaVersion is 0, reading up to 1",
                RemoteReply(body: .refused(.newerSchemaVersion(event: "e", version: 0, newest: 1)))
            ),
            (
                "RemoteRefusal.tooLarge.bytes is -1",
                RemoteReply(body: .refused(.tooLarge(bytes: -1, limit: 10)))
            ),
            (
                "RemoteRefusal.tooLarge.limit is -10",
                RemoteReply(body: .refused(.tooLarge(bytes: 1, limit: -10)))
            ),
            ("RemoteRefusal.unsupportedVersion is -1", RemoteReply(body: .refused(.unsupportedVersion(-1)))),
            (
                "RemoteRefusal.unsupportedVersion is 4294967296",
                RemoteReply(body: .refused(.unsupportedVersion(1 << 32)))
            ),
        ] as [(String, RemoteReply)])
    func badReplyFields(says: String, reply: RemoteReply) async throws {
        let chain = SplitChain(transport: { _ in CannedReplyTransport(reply: reply) })

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        let broken = try #require(outcome.interruptedDetails, "\(outcome)")
        #expect(broken.lastReached == ResponderID(chain.link))
        #expect(broken.cause as? RemoteLinkError == .unreadableReply(says))
        #expect(chain.frontLetters.outcomes.map(\.kind) == [.interrupted])
    }

    @Test("a reply at the edges of every range is read: no hops, an empty pass, the largest counts")
    func edgesOfTheRanges() async throws {
        let edges = [
            reply {
                $0.hops = 0
                $0.captureHops = 0
                $0.captureHandlerCount = 0
                $0.phase = ""
            },
            reply {
                $0.hops = WireOutcome.maxHops
                $0.captureHops = WireOutcome.maxHops
            },
            stop { $0.hop = WireOutcome.maxHops },
            rejection { $0.limit = .max },
            RemoteReply(body: .refused(.unsupportedVersion(Int(UInt32.max)))),
        ]
        for edge in edges {
            let chain = SplitChain(transport: { _ in CannedReplyTransport(reply: edge) })
            let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))
            if case .unreadableReply = outcome.interruptedDetails?.cause as? RemoteLinkError {
                Issue.record("\(edge) was not read: \(outcome)")
            }
        }
    }

    @Test(
        "a request with a hopsBefore out of range is refused undecodable, naming the field, and never posted",
        arguments: [
            (-1, "RemoteRequest.hopsBefore is -1"),
            (.min, "RemoteRequest.hopsBefore is -9223372036854775808"),
            (.max, "RemoteRequest.hopsBefore is 9223372036854775807, over 2147483647"),
        ] as [(Int, String)])
    func hopsBeforeOutOfRange(hopsBefore: Int, says: String) async throws {
        let chain = SplitChain(transport: { entries in
            RewritingTransport(entries: entries) { $0.hopsBefore = hopsBefore }
        })

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        let broken = try #require(outcome.interruptedDetails, "\(outcome)")
        #expect(broken.cause as? RemoteLinkError == .refused(.undecodable(says)))
        #expect(await chain.b[0].seen.isEmpty)
    }

    @Test(
        "any time left a request carries is taken: the most is a deadline far off, the least one already due",
        arguments: [Int64.max, Int64.max - 1, 0, -1, .min])
    func anyTimeLeft(nanoseconds: Int64) async throws {
        let chain = SplitChain(transport: { entries in
            RewritingTransport(entries: entries) { $0.timeLeftNanoseconds = nanoseconds }
        })

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        if nanoseconds > 0 {
            #expect(outcome.isHandled, "\(outcome)")
        } else {
            #expect(outcome.kind == .timedOut, "\(outcome)")
        }
    }

    @Test("a deadline further off than the wire's nanoseconds reach is sent as the farthest it can say")
    func deadlineBeyondTheWire() async throws {
        let seen = RequestRecorder()
        let chain = SplitChain(transport: { entries in
            RewritingTransport(entries: entries) { seen.record($0) }
        })

        let outcome = await chain.f0.send(
            PlaceOrder(sku: "A-1"), options: SendOptions(timeout: .seconds(10_000_000_000)))

        #expect(outcome.isHandled, "\(outcome)")
        #expect(seen.timeLeft == .max)
    }

    @Test("durations are given in nanoseconds on the wire, saturated at Int64's bounds, never trapping")
    func clampedNanoseconds() {
        #expect(Duration.seconds(2).clampedNanoseconds == 2_000_000_000)
        #expect(Duration.nanoseconds(-1_500).clampedNanoseconds == -1_500)
        #expect(Duration.nanoseconds(Int64.max).clampedNanoseconds == .max)
        #expect(Duration.nanoseconds(Int64.min).clampedNanoseconds == .min)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == .max)
        #expect(Duration.seconds(Int64.min).clampedNanoseconds == .min)
        #expect((Duration.nanoseconds(Int64.max) + .nanoseconds(1)).clampedNanoseconds == .max)
    }
}

/// The time left of the last request a transport saw.
private final class RequestRecorder: Sendable {
    private let last = Mutex<Int64?>(nil)

    func record(_ request: RemoteRequest) { last.withLock { $0 = request.timeLeftNanoseconds } }

    var timeLeft: Int64? { last.withLock { $0 } }
}
