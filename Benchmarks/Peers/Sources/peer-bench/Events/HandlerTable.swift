import ResponderChain

/// The 4-entry handler table every peer stage uses: keys are the event type's `ObjectIdentifier`,
/// scanned linearly, each entry a plain synchronous closure that casts the event and adds to the
/// stage's counter. The work the library does per hop (find the entry, cast, add, decide), written
/// by hand; a copy of responder-bench's `BareHandlerTable`.
struct HandlerTable: Sendable {
    /// What a handler decides.
    enum Disposition: Sendable {
        case handled
        case pass
    }

    /// A handler: the event, whether the stage is the top of its chain, the stage's counter.
    typealias Handler = @Sendable (_ event: any Event, _ isTop: Bool, _ seen: inout Int) -> Disposition

    private let keys: [ObjectIdentifier]
    private let handlers: [Handler]

    /// The table of every peer stage: the three decoys, then ``Probe``.
    static let standard = HandlerTable(entries: [
        (ObjectIdentifier(DecoyA.self), Self.handler(for: DecoyA.self) { $0.a }),
        (ObjectIdentifier(DecoyB.self), Self.handler(for: DecoyB.self) { $0.a }),
        (ObjectIdentifier(DecoyC.self), Self.handler(for: DecoyC.self) { $0.a }),
        (ObjectIdentifier(Probe.self), Self.handler(for: Probe.self) { $0.a }),
    ])

    init(entries: [(ObjectIdentifier, Handler)]) {
        keys = entries.map(\.0)
        handlers = entries.map(\.1)
    }

    /// Finds `event`'s handler and runs it; an event with no handler passes.
    @inline(__always)
    func handle(_ event: any Event, isTop: Bool, seen: inout Int) -> Disposition {
        let key = ObjectIdentifier(type(of: event))
        for index in keys.indices where keys[index] == key {
            return handlers[index](event, isTop, &seen)
        }
        return .pass
    }

    private static func handler<E: Event>(
        for type: E.Type,
        value: @escaping @Sendable (E) -> Int
    ) -> Handler {
        { event, isTop, seen in
            guard let typed = event as? E else { return .pass }
            seen &+= value(typed)
            return isTop ? .handled : .pass
        }
    }
}
