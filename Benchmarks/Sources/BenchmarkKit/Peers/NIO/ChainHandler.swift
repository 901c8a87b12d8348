import NIOCore
import ResponderChain

/// The message of the NIO chain: the event, as `any Event`, in a concrete type.
///
/// NIO handlers name a concrete `InboundIn`, and `unwrapInboundIn` casts the message to it. With
/// `InboundIn = any Event` that cast is a protocol-conformance check on every hop, which neither
/// the library (it looks the event's type up once per send) nor the baselines pay; a concrete
/// envelope makes it a type comparison, as a NIO user's own message type would.
struct EventEnvelope {
    let event: any Event
}

/// A stage of the NIO chain: an inbound handler that unwraps the message (an ``EventEnvelope``),
/// runs the 4-entry ``BareHandlerTable`` lookup on its event, and forwards the message unchanged
/// with `context.fireChannelRead`; the top handler consumes it.
final class ChainHandler: ChannelInboundHandler {
    typealias InboundIn = EventEnvelope
    typealias InboundOut = EventEnvelope

    private let isTop: Bool
    /// The sum of the handled events' `a`.
    private(set) var seen = 0
    /// How many events this handler consumed (the top one only).
    private(set) var consumed = 0

    init(isTop: Bool) {
        self.isTop = isTop
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let event = Self.unwrapInboundIn(data).event
        if BareHandlerTable.standard.handle(event, isTop: isTop, seen: &seen) == .handled {
            consumed &+= 1
        } else {
            context.fireChannelRead(data)
        }
    }
}
