import GRPCCore
import ResponderChain
@testable import ResponderChainGRPC
import Testing

@Suite("A call's own deadline (grpc-timeout) as its event's")
struct CallDeadlineTests {
    @Test(
        "a grpc-timeout header is read as gRPC's protocol defines it: one to eight digits and a unit",
        arguments: [
            ("1S", Duration.seconds(1)), ("2M", .seconds(120)), ("3H", .seconds(10_800)),
            ("1500m", .milliseconds(1_500)), ("7u", .microseconds(7)),
            ("99999999n", .nanoseconds(99_999_999)),
            ("99999999H", .seconds(99_999_999 * 3_600)),
        ])
    func reads(header: String, timeout: Duration) {
        #expect(CallDeadline.timeout(header) == timeout)
    }

    @Test(
        "anything else in the header is no deadline, as for gRPC's own reader",
        arguments: ["", "S", "1", "1s", "123456789S", "-1S", "1.5S", " 1S", "1S ", "１S", "1m1"])
    func refuses(header: String) {
        #expect(CallDeadline.timeout(header) == nil)
        var metadata = Metadata()
        metadata.addString(header, forKey: "grpc-timeout")
        #expect(CallDeadline(metadata, now: EventSystem.Instant(offset: .zero)) == nil)
    }

    @Test(
        "the event's time left is the call's when the request has none, and the sooner of the two otherwise")
    func timeLeft() throws {
        let now = EventSystem.Instant(offset: .seconds(100))
        var metadata = Metadata()
        metadata.addString("2S", forKey: "grpc-timeout")
        let deadline = try #require(CallDeadline(metadata, now: now))
        #expect(deadline.timeLeftNanoseconds(nil, now: now) == 2_000_000_000)
        #expect(deadline.timeLeftNanoseconds(500, now: now) == 500)
        #expect(deadline.timeLeftNanoseconds(5_000_000_000, now: now) == 2_000_000_000)
        #expect(deadline.timeLeftNanoseconds(nil, now: now + .seconds(3)) == -1_000_000_000)
        #expect(CallDeadline(Metadata(), now: now) == nil)

        metadata.replaceOrAddString("99999999H", forKey: "grpc-timeout")
        let far = try #require(CallDeadline(metadata, now: now))
        #expect(far.timeLeftNanoseconds(nil, now: now) == Int64.max)
    }
}
