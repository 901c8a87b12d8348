import NIOCore
import ResponderChain

/// A stage of the NIO chain: an inbound handler that unwraps the message as `any Event`, runs the
/// 4-entry ``BareHandlerTable`` lookup, and forwards the message unchanged with
/// `context.fireChannelRead`; the top handler consumes it.
final class ChainHandler: ChannelInboundHandler {
    typealias InboundIn = any Event
    typealias InboundOut = any Event

    private let isTop: Bool
    /// The sum of the handled events' `a`.
    private(set) var seen = 0
    /// How many events this handler consumed (the top one only).
    private(set) var consumed = 0

    init(isTop: Bool) {
        self.isTop = isTop
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let event = Self.unwrapInboundIn(data)
        if BareHandlerTable.standard.handle(event, isTop: isTop, seen: &seen) == .handled {
            consumed &+= 1
        } else {
            context.fireChannelRead(data)
        }
    }
}
