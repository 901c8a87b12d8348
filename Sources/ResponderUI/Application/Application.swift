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
/// Its event system (``init(delegate:system:label:)``) is the one of every event sent from its
/// windows, their views and controllers: the window layer's pointer, key, action and control
/// events, and the events your views send themselves, with no option to pass.
@MainActor
open class Application: InterfaceResponder {
    /// The responder above the application: the app delegate, an actor.
    public nonisolated let delegate: (any Responder)?
    /// The attached windows, in the order they were added.
    public private(set) var windows: [Window] = []
    /// The window nil-target actions go to; the first window added until another is made key.
    public internal(set) var keyWindow: Window?

    /// The system given at creation; `nil` for the process-wide one, read when each send starts.
    private nonisolated let system: EventSystem?

    /// An application whose chain ends at `delegate` (or at itself, without one).
    ///
    /// - Parameters:
    ///   - delegate: The responder above the application, usually an actor; `nil` makes the
    ///     application the root.
    ///   - system: The event system of every event sent from this application's windows (see
    ///     ``InterfaceResponder/eventSystem``); `nil` for `EventSystem.default`.
    ///   - label: The application's name in traces and outcomes.
    public init(delegate: (any Responder)? = nil, system: EventSystem? = nil, label: String? = nil) {
        self.delegate = delegate
        self.system = system
        super.init(label: label)
    }

    /// The ``delegate``; `nil` without one, where the application ends the chain as its root.
    open override var next: (any Responder)? { delegate }

    /// `true` when there is no delegate: then the application ends the chain.
    open nonisolated override var isRoot: Bool { delegate == nil }

    override var currentEventSystem: EventSystem { system ?? .default }

    // MARK: Windows

    /// Attaches `window` (detaching it from another application first). The first window
    /// becomes the key window.
    public func addWindow(_ window: Window) {
        if window.application === self { return }
        window.application?.removeWindow(window)
        windows.append(window)
        window.application = self
        window.systemOfFormerApplication = nil
        if keyWindow == nil { keyWindow = window }
    }

    /// Detaches `window`: its chain now ends at the window, so events in flight below it end
    /// `Outcome.interrupted(_:)` there, and its pointer sequences are cancelled, each bound view
    /// told with ``PointerCancellation/windowDetached``.
    public func removeWindow(_ window: Window) {
        guard window.application === self else { return }
        windows.removeAll { $0 === window }
        // Events sent from the detached window are still this application's to account for.
        window.systemOfFormerApplication = currentEventSystem
        window.application = nil
        if keyWindow === window { keyWindow = windows.last }
        window.cancelAllSequences(reason: .windowDetached)
    }
}

extension Application {
    /// Renamed ``init(delegate:system:label:)``. Kept, unavailable, so that the old label fails
    /// with an error that names the new one.
    @available(*, unavailable, renamed: "init(delegate:system:label:)")
    public convenience init(delegate: (any Responder)? = nil, router: EventSystem, label: String? = nil) {
        self.init(delegate: delegate, system: router, label: label)
    }
}
