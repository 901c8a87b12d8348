import GRPCCore
import ResponderChain

/// The deadline a caller gave its gRPC call (the `grpc-timeout` header), which stands for the
/// event's own deadline when the request carries none.
///
/// A client written from the schema in another language sets the call's deadline (gRPC's
/// `timeout`), not `time_left_nanoseconds`. Without this, its event would run on past the call,
/// and end `cancelled` when gRPC gives the call up at that deadline; with it, the event ends
/// `timedOut` there, by its own deadline, as it does when the request carries its time left.
/// When a request carries both, the sooner one is the event's (an event cannot be answered past
/// its call). A `GRPCRemoteTransport` gives its calls the request's time left plus its
/// `deadlineGrace`, so its requests keep their own; one whose send has no deadline gets the
/// transport's `answerTimeout` as its call's deadline, and so the same deadline there.
struct CallDeadline: Sendable {
    /// When the call's deadline passes, on the clock of the entries' event system.
    let instant: EventSystem.Instant

    /// The deadline of a call whose metadata has just arrived at `now` (the entries' system's
    /// `now`), or `nil` when it has no valid `grpc-timeout` (as gRPC's own reader, which then
    /// sets no timeout).
    init?(_ metadata: Metadata, now: EventSystem.Instant) {
        guard let header = metadata[stringValues: "grpc-timeout"].first(where: { _ in true }),
            let timeout = Self.timeout(header)
        else { return nil }
        instant = now + timeout
    }

    /// The timeout a `grpc-timeout` header gives: 1 to 8 ASCII digits and a unit (`H`, `M`, `S`,
    /// `m`, `u`, `n`), as gRPC's HTTP/2 protocol defines it; `nil` for anything else.
    static func timeout(_ header: String) -> Duration? {
        let utf8 = header.utf8
        guard (2...9).contains(utf8.count), let unit = utf8.last else { return nil }
        var amount: Int64 = 0
        for digit in utf8.dropLast() {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            amount = amount * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        switch unit {
        case UInt8(ascii: "H"): return .seconds(amount * 3_600)
        case UInt8(ascii: "M"): return .seconds(amount * 60)
        case UInt8(ascii: "S"): return .seconds(amount)
        case UInt8(ascii: "m"): return .milliseconds(amount)
        case UInt8(ascii: "u"): return .microseconds(amount)
        case UInt8(ascii: "n"): return .nanoseconds(amount)
        default: return nil
        }
    }

    /// The time left for an event whose request carries `requested` (nanoseconds, or `nil` for
    /// none), read at `now` on the same clock: the call's time left, or the request's when it
    /// is sooner.
    func timeLeftNanoseconds(_ requested: Int64?, now: EventSystem.Instant) -> Int64 {
        let call = (instant - now).clampedNanoseconds
        guard let requested else { return call }
        return min(requested, call)
    }
}
