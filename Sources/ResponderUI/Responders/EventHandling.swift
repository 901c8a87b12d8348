/// Gives each interface responder its own handler table, typed by the responder's own class.
///
/// `handlers` is the core's `Strategies` table, one per instance instead of one per type, and
/// registers handlers the same way a responder type's static table does (the main-actor
/// registration family): each handler gets the responder as the subclass you registered it on,
/// with no cast, and runs on the main actor during the hop at this responder, before its pointer
/// and key methods (see ``InterfaceResponder/respond(to:context:)``).
///
/// ```swift
/// final class ProductCell: View { var sku = "" }
///
/// cell.handlers.on(AddToCart.self) { cell, event, context in   // cell: ProductCell
///     context.info[SKU.self] = cell.sku                        // decorate for the hops above
///     return .pass
/// }
/// cell.handlers.on(.addToCart, payload: String.self) { cell, sku, context in .handled }
/// controller.handlers.proxy { controller in controller.events }   // an event proxy
/// root.handlers.onAnyEvent { root, event, context in .pass }         // sees everything
/// cell.handlers.remove(AddToCart.self)
/// cell.handlers.handles(AddToCart.self)                              // false
/// ```
///
/// Each handler receives the responder, so it does not need to capture it (and cannot create a
/// retain cycle through it). ``InterfaceResponder`` conforms; the protocol exists so that
/// `handlers` can name `Self`.
@MainActor
public protocol EventHandling: AnyObject {}

extension EventHandling where Self: InterfaceResponder {
    /// This responder's own handler table, typed by its class: register, remove and ask here.
    public var handlers: Strategies<Self> {
        get { Strategies(rebinding: handlerTable) }
        set { handlerTable = Strategies(rebinding: newValue) }
    }
}
