import ResponderChain

/// The hand-written handler table every chain baseline uses: four entries keyed by the event
/// type's `ObjectIdentifier`, scanned linearly, each a plain synchronous closure that updates the
/// owner's counter. The same work the library's handlers do per hop (find the entry, cast the
/// event, add to a counter, decide), without the library.
struct BareHandlerTable: Sendable {
    /// What a baseline handler decides.
    enum Disposition: Sendable {
        case handled
        case pass
    }

    /// A handler: the event, whether the owner is the top of its chain, the owner's counter.
    typealias Handler = @Sendable (_ event: any Event, _ isTop: Bool, _ seen: inout Int) -> Disposition

    private let keys: [ObjectIdentifier]
    private let handlers: [Handler]

    /// The table of every baseline: the three decoys, then ``Probe``.
    static let standard = BareHandlerTable(entries: [
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
        for type: E.Type, value: @escaping @Sendable (E) -> Int
    ) -> Handler {
        { event, isTop, seen in
            guard let typed = event as? E else { return .pass }
            seen &+= value(typed)
            return isTop ? .handled : .pass
        }
    }
}
