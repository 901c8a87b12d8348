/// How a strategy table finds handlers for an event: by type, or by name for ``NamedEvent``.
@usableFromInline
enum EventKey: Hashable, Sendable {
    case type(ObjectIdentifier)
    case name(EventName)

    init(of event: any Event) {
        // Compare metatypes first: most events are typed, and a dynamic cast costs far more.
        if Swift.type(of: event) == NamedEvent.self, let named = event as? NamedEvent {
            self = .name(named.name)
        } else {
            self = .type(ObjectIdentifier(Swift.type(of: event)))
        }
    }
}
