/// How a strategy table finds handlers for an event: by type, or by name for ``NamedEvent``.
@usableFromInline
enum EventKey: Hashable, Sendable {
    case type(ObjectIdentifier)
    case name(NamedEvent.Name)

    init(of event: any Event) {
        // Metatypes first: most events are typed, and this avoids a dynamic cast. The dynamic
        // type is read once (each read of an existential's type is a runtime call).
        let type = Swift.type(of: event)
        if type == NamedEvent.self, let named = event as? NamedEvent {
            self = .name(named.name)
        } else {
            self = .type(ObjectIdentifier(type))
        }
    }
}
