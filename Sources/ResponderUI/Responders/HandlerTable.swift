/// One responder's own handlers, keyed by event type.
///
/// Fill it through ``EventHandling/handlers`` (typed); the window layer reads it at each hop
/// with a linear scan (a responder rarely has more than a handful of handlers).
@MainActor
public final class HandlerTable {
    /// A handler after type erasure; it receives the responder it belongs to.
    typealias Handler =
        @MainActor (InterfaceResponder, any Event, inout EventContext) async throws -> Disposition

    private var keys: [ObjectIdentifier] = []
    private var entries: [Handler] = []

    nonisolated init() {}

    /// The number of registered handlers.
    public var count: Int { keys.count }

    /// Whether a handler is registered for events of type `type`.
    public func handles<E: Event>(_ type: E.Type) -> Bool {
        slot(for: ObjectIdentifier(type)) != nil
    }

    func handler(for type: any Event.Type) -> Handler? {
        if keys.isEmpty { return nil }
        return slot(for: ObjectIdentifier(type)).map { entries[$0] }
    }

    func register<E: Event>(_ type: E.Type, _ handler: @escaping Handler) {
        let key = ObjectIdentifier(type)
        if let existing = slot(for: key) {
            entries[existing] = handler
        } else {
            keys.append(key)
            entries.append(handler)
        }
    }

    func remove<E: Event>(_ type: E.Type) {
        guard let existing = slot(for: ObjectIdentifier(type)) else { return }
        keys.remove(at: existing)
        entries.remove(at: existing)
    }

    private func slot(for key: ObjectIdentifier) -> Int? {
        keys.firstIndex(of: key)
    }
}
