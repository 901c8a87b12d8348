/// How a strategy table finds handlers for an event: by type, or by name for ``NamedEvent``.
@usableFromInline
enum EventKey: Hashable, Sendable {
    case type(ObjectIdentifier)
    case name(NamedEvent.Name)

    init(of event: any Event) {
        // Metatypes first: most events are typed, and this avoids a dynamic cast.
        if Swift.type(of: event) == NamedEvent.self, let named = event as? NamedEvent {
            self = .name(named.name)
        } else {
            self = .type(ObjectIdentifier(Swift.type(of: event)))
        }
    }
}
