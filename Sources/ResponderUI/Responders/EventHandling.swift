/// Gives each interface responder a typed way to register its own handlers.
///
/// `handlers` is typed by the receiver's static type, so a handler gets the responder as the
/// subclass you registered it on, with no cast:
///
/// ```swift
/// final class ProductCell: View { var sku = "" }
///
/// cell.handlers.on(AddToCart.self) { cell, event, context in   // cell: ProductCell
///     context.info[SKU.self] = cell.sku
///     return .handledAndContinue
/// }
/// ```
///
/// ``InterfaceResponder`` conforms; the protocol exists so that `handlers` can name `Self`.
@MainActor
public protocol EventHandling: AnyObject {}

extension EventHandling where Self: InterfaceResponder {
    /// Registration of this responder's own handlers, in its
    /// ``InterfaceResponder/handlerTable`` (see ``HandlerRegistrar``).
    public var handlers: HandlerRegistrar<Self> { HandlerRegistrar(owner: self) }
}
