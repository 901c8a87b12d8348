/// Registers handlers on one responder, typed by that responder's own class.
///
/// Get one from ``EventHandling/handlers``. The handler receives the responder, so it does not
/// need to capture it (and cannot create a retain cycle through it).
@MainActor
public struct HandlerRegistrar<Owner: EventHandling> {
    /// The responder the handlers are registered on.
    public let owner: Owner

    /// Registration for `owner`.
    public init(owner: Owner) {
        self.owner = owner
    }

    /// Handles events of type `type` at this responder, on the main actor. Replaces an earlier
    /// handler for the same type.
    ///
    /// ```swift
    /// view.handlers.on(Tapped.self) { view, tap, context in
    ///     view.alpha = 0.5
    ///     return .handled
    /// }
    /// ```
    public func on<E: Event>(
        _ type: E.Type,
        _ handler: @escaping @MainActor (Owner, E, inout EventContext) async throws -> Disposition
    ) {
        owner.handlerTable.register(type) { responder, event, context in
            // The table found this entry by `E`'s identity and passes the responder it belongs
            // to, so neither cast can fail.
            guard let owner = responder as? Owner, let typed = event as? E else { return .pass }
            return try await handler(owner, typed, &context)
        }
    }

    /// Removes the handler for events of type `type`, if any.
    public func remove<E: Event>(_ type: E.Type) {
        owner.handlerTable.remove(type)
    }
}
