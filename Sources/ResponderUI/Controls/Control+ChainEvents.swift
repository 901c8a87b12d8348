extension EventHandling where Self: Control {
    /// Sends the event `make` builds (from this control, typed as its own class) up the chain
    /// each time `controlEvent` happens.
    ///
    /// ```swift
    /// favourite.addChainEvent(for: .valueChanged) { toggle in
    ///     FavouriteChanged(isOn: toggle.isOn)
    /// }
    /// ```
    public func addChainEvent(
        for controlEvent: ControlEvent,
        _ make: @escaping @MainActor (Self) -> any Event
    ) {
        register(controlEvent) { control in
            // Registered on this control, and only ever called with it.
            guard let typed = control as? Self else { return ControlEventMismatch() }
            return make(typed)
        }
    }
}

/// Stands in for an event if a control's registration were ever called with another control
/// (it cannot be): nobody handles it, so it is reported, never silently dropped.
struct ControlEventMismatch: Event {}
