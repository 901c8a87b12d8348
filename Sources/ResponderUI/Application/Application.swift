/// The application: its windows, its key window, and the end of every window's chain.
///
/// Its next responder is its ``delegate``, an actor off the main actor that sees every event
/// nobody below handled (or that was handled and continued). Without a delegate the application
/// is itself the root.
///
/// ```swift
/// actor AppDelegate: Responder {
///     var next: (any Responder)? { nil }
///     nonisolated var isRoot: Bool { true }
///     static let strategies = Strategies<AppDelegate> { $0.onAnyEvent { _, _, _ in .handled } }
/// }
///
/// let app = Application(delegate: AppDelegate())
/// app.addWindow(window)
/// ```
///
/// `system` configures tracing and dead letters for every event the window layer sends
/// (pointer, key, action and control events).
@MainActor
open class Application: InterfaceResponder {
    /// The responder above the application: the app delegate, an actor.
    public nonisolated let delegate: (any Responder)?
    /// The attached windows, in the order they were added.
    public private(set) var windows: [Window] = []
    /// The window nil-target actions go to; the first window added until another is made key.
    public internal(set) var keyWindow: Window?

    private nonisolated let configuredRouter: EventSystem

    /// An application whose chain ends at `delegate` (or at itself, without one), with the
    /// tracer and dead-letter sink of `system` for the window layer's sends.
    public init(delegate: (any Responder)? = nil, system: EventSystem = .default, label: String? = nil) {
        self.delegate = delegate
        self.configuredRouter = system
        super.init(label: label)
    }

    /// The delegate.
    open override var next: (any Responder)? { delegate }

    /// `true` when there is no delegate: then the application ends the chain.
    open nonisolated override var isRoot: Bool { delegate == nil }

    /// The system given at creation.
    open nonisolated override var eventSystem: EventSystem { configuredRouter }

    /// The options the window layer sends its events with (pointer, key, action and control
    /// events): this application's tracer and dead-letter sink. A view's own
    /// ``Responder/system`` is the default one, so pass these to events you send from views
    /// yourself to have them traced and dead-lettered like the rest:
    ///
    /// ```swift
    /// await cell.send(AddToCart(sku: cell.sku), options: app.sendOptions)
    /// ```
    public var sendOptions: SendOptions {
        SendOptions(tracer: configuredRouter.tracer, deadLetters: configuredRouter.deadLetters)
    }

    // MARK: Windows

    /// Attaches `window` (detaching it from another application first). The first window
    /// becomes the key window.
    public func addWindow(_ window: Window) {
        if window.application === self { return }
        window.application?.removeWindow(window)
        windows.append(window)
        window.application = self
        if keyWindow == nil { keyWindow = window }
    }

    /// Detaches `window`: its chain now ends at the window, so events in flight below it end
    /// ``Outcome/interrupted(_:)`` there, and its pointer sequences are cancelled (their `began`
    /// and `moved` still under way are withdrawn, then each bound view is told, with
    /// ``PointerCancellation/windowDetached``).
    public func removeWindow(_ window: Window) {
        guard window.application === self else { return }
        windows.removeAll { $0 === window }
        window.application = nil
        if keyWindow === window { keyWindow = windows.last }
        window.cancelAllSequences(reason: .windowDetached)
    }
}
