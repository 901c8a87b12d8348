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
            // Registered on this control, and only ever called with it: the cast cannot fail.
            (control as? Self).map(make)
        }
    }
}
