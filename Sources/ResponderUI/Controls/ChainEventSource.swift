/// What sends chain events of the app's choosing up the responder chain from itself: a
/// ``Control`` on its control events, a ``GestureRecognizer`` (from its view) on its state
/// changes. The protocol exists so that `addChainEvent` can hand the maker the sender typed as
/// its own class.
///
/// ```swift
/// buy.addChainEvent(for: .tap) { button in AddToCart(sku: button.sku) }
/// pan.addChainEvent { pan in Scrolled(by: pan.translation(in: nil)) }
/// ```
@MainActor
public protocol ChainEventSource: AnyObject {}

extension ChainEventSource where Self: Control {
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

extension ChainEventSource where Self: GestureRecognizer {
    /// Sends the event `make` builds (from this recognizer, typed as its own class) up the
    /// chain from the recognizer's view at each state change a gesture makes: `recognized` for
    /// a discrete gesture; `began`, each `changed`, then `ended` or `cancelled` for a continuous
    /// one. `make` returns `nil` to send nothing for a state.
    ///
    /// ```swift
    /// pan.addChainEvent { pan in
    ///     pan.state == .changed ? Scrolled(by: pan.translation(in: nil)) : nil
    /// }
    /// ```
    ///
    /// Each is an ordinary send from the view: traced, captured, wrapped, and ended with one
    /// outcome (``GestureRecognizer/lastOutcomes``; in ``PointerDelivery/triggered`` when a
    /// window's delivery of a pointer event made the state change).
    public func addChainEvent(_ make: @escaping @MainActor (Self) -> (any Event)?) {
        register { recognizer in
            // Registered on this recognizer, and only ever called with it: the cast cannot fail.
            (recognizer as? Self).flatMap(make)
        }
    }
}
