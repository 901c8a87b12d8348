/// The main-actor base of everything in the window layer: ``View``, ``ViewController``,
/// ``Window`` and ``Application``.
///
/// It plays the part of `UIResponder`. Every instance has:
/// - a live ``next`` link (subclasses say what it is: superview, controller, window, application);
/// - a per-instance handler table, the core's `Strategies` (``EventHandling/strategies``), typed
///   by the responder's class — entries by type or name, a
///   proxy, a catch-all:
///   ```swift
///   cell.strategies.on(AddToCart.self) { cell, event, context in
///       context.info[CellIndex.self] = cell.index   // decorate for the hops above
///       return .pass
///   }
///   ```
/// - overridable methods for the window layer's own events (``pointerBegan(_:)``,
///   ``keyDown(_:)``, …) that pass by default, so an event nobody claims bubbles up;
/// - first-responder state (``canBecomeFirstResponder``, ``becomeFirstResponder()``, …) and
///   hooks told when it changes (``didBecomeFirstResponder()``, ``didResignFirstResponder()``).
///
/// A hop to an interface responder runs its handlers on the main actor: its own table's, then
/// its class's (see ``strategies``). An event sent from the main actor visits every main-actor
/// responder of the chain without leaving it; only a hop to a responder on another actor (such
/// as the application's delegate) switches.
@MainActor
open class InterfaceResponder: MainActorResponder, EventHandling, CustomStringConvertible {
    /// Subclasses share this class's table; per-instance handlers live in
    /// ``EventHandling/strategies``.
    public typealias StrategyOwner = InterfaceResponder

    /// The class's table, below each instance's own (``EventHandling/strategies``): its entries
    /// for ``PointerEvent`` and ``KeyEvent`` call the pointer and key methods, so overriding
    /// ``pointerBegan(_:)`` or ``keyDown(_:)`` fills an entry of this table. A hop runs it when
    /// the instance's table has no entry for the event or passes it, in the bubble pass.
    ///
    /// A pointer event stopped while an instance handler ran (`EventContext.isCancelled`, for
    /// example withdrawn by its window) does not reach the pointer methods: the responder may
    /// already have been told of a later phase.
    public nonisolated static let strategies: Strategies<InterfaceResponder> = {
        var table = Strategies<InterfaceResponder>()
        table.on(PointerEvent.self) { responder, pointer, context in
            if context.isCancelled { return .pass }
            switch pointer.phase {
            case .began: return responder.pointerBegan(pointer)
            case .moved: return responder.pointerMoved(pointer)
            case .ended: return responder.pointerEnded(pointer)
            case .cancelled: return responder.pointerCancelled(pointer)
            }
        }
        table.on(KeyEvent.self) { responder, key, _ in
            switch key.phase {
            case .down: return responder.keyDown(key)
            case .up: return responder.keyUp(key)
            }
        }
        return table
    }()

    /// This responder's own handlers, read and filled through ``EventHandling/strategies``,
    /// typed by the instance's class. Behind a lock because that property is also the core's
    /// instance table (`Responder.strategies`), which any isolation may read; the window layer's
    /// hops read it on the main actor, once per hop.
    final let ownTable = Locked(Strategies<InterfaceResponder>())

    /// A copy of this responder's own table, as it is now.
    final nonisolated var handlerTable: Strategies<InterfaceResponder> {
        ownTable.withLock { $0 }
    }

    private nonisolated let customLabel: String?

    /// A responder named `label` in traces and outcomes (the type's name if `nil`).
    public init(label: String? = nil) {
        self.customLabel = label
    }

    /// The label given at creation, or the type's name.
    public nonisolated var label: String {
        customLabel ?? String(describing: type(of: self))
    }

    /// How the responder prints (`print(view)`, `"\(view)"`): its ``label``, the name traces and
    /// outcomes use.
    open nonisolated var description: String { label }

    /// The next responder, read live at every hop. `nil` here: subclasses link it.
    open var next: (any Responder)? { nil }

    /// Whether this responder properly ends a chain. `false`: only an ``Application`` without a
    /// delegate is a root.
    open nonisolated var isRoot: Bool { false }

    /// The event system of the events this responder sends: its application's, found through
    /// its window each time a send starts.
    ///
    /// This covers the pointer, key, action and control events the window layer sends for it; a
    /// view moved to another application's window follows it. A window detached from its
    /// application keeps that application's system; a responder in no window uses
    /// `EventSystem.default`.
    ///
    /// ```swift
    /// let app = Application(system: EventSystem(deadLetters: DeadLetter.Sink { print($0) }))
    /// app.addWindow(window)
    /// await cell.send(AddToCart(sku: cell.sku))   // through app's system
    /// ```
    public final nonisolated(nonsending) var eventSystem: EventSystem {
        get async { await Self.currentEventSystem(of: self) }
    }

    private static func currentEventSystem(of responder: InterfaceResponder) -> EventSystem {
        responder.currentEventSystem
    }

    /// Whether ``EventHandling/strategies`` has capture handlers (registered with
    /// `strategies.on(_:phase:_:)` and `EventContext.Phase.capture`): the responder is then visited in
    /// the capture pass of its application's system, if that system runs one.
    public final nonisolated(nonsending) var capturesEvents: Bool {
        get async { await Self.capturesEvents(of: self) }
    }

    private static func capturesEvents(of responder: InterfaceResponder) -> Bool {
        responder.handlerTable.capturesEvents
    }

    /// The system this responder's sends use right now: its window's.
    var currentEventSystem: EventSystem { window?.currentEventSystem ?? .default }

    /// The window this responder belongs to, if any (the first responder lives there).
    open var window: Window? { nil }

    // MARK: Handling

    /// Runs the responder's tables (its own, then its class's) on the main actor: a plain call
    /// when the event is already routed from the main actor. The one exception is the
    /// `cancelled` of a take-over (``View/takeOver(_:)``): the first interface responder not
    /// below the taker ends it handled without running anything (passes it, in the capture
    /// pass).
    public final nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        try await Self.hop(to: self, event, context: &context)
    }

    private static func hop(to responder: InterfaceResponder, _ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        // `isEmpty` first: most sends carry no information.
        if !context.info.isEmpty, let boundary = context.info[PointerTakeOverBoundary.self],
            !boundary.isBelowTaker(responder)
        {
            return context.phase == .capture ? .pass : .handled
        }
        return try await responder.runStrategies(for: event, context: &context)
    }

    /// Runs this responder's two tables, the window layer's one way to give a responder
    /// behaviour: its own (``EventHandling/strategies``, filled per instance), then, when that
    /// one has no entry or passes in the bubble pass, its class's (``strategies``), where the
    /// pointer and key methods (``pointerBegan(_:)``…, ``keyDown(_:)``, ``keyUp(_:)``) are the
    /// entries for ``PointerEvent`` and ``KeyEvent``. The capture pass runs the instance's capture
    /// handlers only. (Within the module, ``Control`` tracks its pointers after both.)
    func runStrategies(for event: any Event, context: inout EventContext) async throws -> Disposition {
        let own = handlerTable
        if !own.isEmpty {
            let disposition = try await own.run(
                on: self, from: #isolation, event: event, context: &context)
            // The class's entries are the bubble's: a capture hop runs the instance's table only.
            if disposition.isHandled || context.phase == .capture { return disposition }
        }
        return try await Self.strategies.run(on: self, from: #isolation, event: event, context: &context)
    }

    /// Replaced: the window layer has one way to give a responder behaviour, the core's
    /// `Strategies` table (see ``runStrategies(for:context:)``).
    @available(
        *, unavailable,
        message:
            "register handlers in the responder's strategies (strategies.on(_:_:), onAnyEvent for every event), or override the pointer and key methods"
    )
    open func respond(to event: any Event, context: inout EventContext) async throws -> Disposition {
        try await runStrategies(for: event, context: &context)
    }

    // MARK: Pointer and key methods

    /// A pointer went down on this responder (or bubbled up to it). Passes by default.
    open func pointerBegan(_ pointer: PointerEvent) -> Disposition { .pass }

    /// A pointer bound to this responder's sequence moved. Passes by default.
    open func pointerMoved(_ pointer: PointerEvent) -> Disposition { .pass }

    /// A pointer bound to this responder's sequence lifted. Passes by default.
    open func pointerEnded(_ pointer: PointerEvent) -> Disposition { .pass }

    /// A pointer sequence was cancelled (``PointerEvent/cancellation`` says why): by the input
    /// source, because its view left its window, or because an ancestor took it over
    /// (``View/takeOver(_:)``). The `cancelled` bubbles from the bound view like the other
    /// phases (after a take-over, only below the taker). Passes by default.
    open func pointerCancelled(_ pointer: PointerEvent) -> Disposition { .pass }

    /// A key went down while this responder was the first responder (or an ancestor of it in
    /// the chain). Passes by default.
    open func keyDown(_ key: KeyEvent) -> Disposition { .pass }

    /// A key went up. Passes by default.
    open func keyUp(_ key: KeyEvent) -> Disposition { .pass }

    // MARK: Actions

    /// Whether this responder performs actions of type `action`, found without running any
    /// handler. ``Application/target(forAction:from:)`` asks it of each interface responder on
    /// the way.
    ///
    /// The default answers from ``EventHandling/strategies``, the table a hop runs: `true` when it has an
    /// entry for the type, or else when its proxy (read now, as a hop would read it) performs
    /// the action — an interface responder proxy is asked this method, any other responder its
    /// static `strategies` table (and its proxy, the same way). A catch-all does not count:
    /// whether it handles an action is known only by running it. A proxy that leads back to a
    /// responder already being asked adds nothing.
    ///
    /// Override it to refuse an action in some state (call `super` otherwise), and have the
    /// handler pass in that state too, so that the query and the send still agree:
    ///
    /// ```swift
    /// override func canPerform<Action: Event>(_ action: Action.Type) async -> Bool {
    ///     if action == Copy.self, selection.isEmpty { return false }
    ///     return await super.canPerform(action)
    /// }
    /// ```
    open func canPerform<Action: Event>(_ action: Action.Type) async -> Bool {
        await ActionLookup.table(handlerTable, of: self, performs: action)
    }

    // MARK: First responder

    /// Whether this responder accepts to become its window's first responder. `false` by
    /// default; text fields and custom focusable views return `true`.
    open var canBecomeFirstResponder: Bool { false }

    /// Whether this responder lets another take its place as first responder. `true` by
    /// default; a field holding an invalid entry can refuse.
    open var canResignFirstResponder: Bool { true }

    /// Called right after this responder became its window's first responder
    /// (``becomeFirstResponder()`` succeeded); ``Window/firstResponder`` is already this
    /// responder. When it took the place of another, that one's ``didResignFirstResponder()``
    /// has run first. Does nothing by default; override it to show focus (no need to call
    /// `super`).
    open func didBecomeFirstResponder() {}

    /// Called right after this responder stopped being its window's first responder: it
    /// resigned (``resignFirstResponder()``, or to let another one become), or it left its
    /// window (it, or an ancestor, was removed from the window's tree or moved to another
    /// window). ``Window/firstResponder`` no longer names it (it is `nil` at that point). Not
    /// called when a resignation is refused, nor when the window is detached from its
    /// application (the window keeps its first responder). Does nothing by default; override it
    /// to hide focus (no need to call `super`).
    open func didResignFirstResponder() {}
}
