/// Gives each interface responder its own handler table, typed by the responder's own class.
///
/// `strategies` is the core's `Strategies` table, one per instance as well as the one per type
/// every responder has (``InterfaceResponder/strategies``, where the pointer and key methods
/// are entries), and registers handlers the same way a responder type's static table does (the
/// main-actor registration family): each handler gets the responder as the subclass you
/// registered it on, with no cast, and runs on the main actor during the hop at this responder,
/// before the class's table (so before its pointer and key methods).
///
/// ```swift
/// final class ProductCell: View { var sku = "" }
///
/// cell.strategies.on(AddToCart.self) { cell, event, context in   // cell: ProductCell
///     context.info[SKU.self] = cell.sku                        // decorate for the hops above
///     return .pass
/// }
/// cell.strategies.on(.addToCart, payload: String.self) { cell, sku, context in .handled }
/// controller.strategies.proxy { controller in controller.events }   // an event proxy
/// root.strategies.onAnyEvent { root, event, context in .pass }         // sees everything
/// cell.strategies.remove(AddToCart.self)
/// cell.strategies.handles(AddToCart.self)                              // false
/// ```
///
/// Each handler receives the responder, so it does not need to capture it (and cannot create a
/// retain cycle through it). ``InterfaceResponder`` conforms; the protocol exists so that
/// `strategies` can name `Self`.
@MainActor
public protocol EventHandling: AnyObject {}

extension EventHandling where Self: InterfaceResponder {
    /// This responder's own handler table, typed by its class: register, remove and ask here.
    ///
    /// It is also the core's instance table (`Responder.strategies`): what this instance
    /// handles, read from any isolation. Below it, every hop runs the class's table
    /// (``InterfaceResponder/strategies``), where the pointer and key methods are entries.
    public nonisolated var strategies: Strategies<Self> {
        get { Strategies(rebinding: handlerTable) }
        set {
            let table = Strategies<InterfaceResponder>(rebinding: newValue)
            ownTable.withLock { $0 = table }
        }
    }

    /// Renamed ``strategies``: the same table, under the core's name.
    @available(*, unavailable, renamed: "strategies")
    public var handlers: Strategies<Self> {
        get { strategies }
        set { strategies = newValue }
    }
}
