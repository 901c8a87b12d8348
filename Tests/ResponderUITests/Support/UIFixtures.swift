import ResponderChain
import ResponderChainTesting
import ResponderUI
/// Test doubles for the window-layer suites, namespaced to avoid clashes with other modules'.
enum UIFixtures {
    /// An event nobody in the fixtures handles unless a test registers a handler.
    struct Ping: Event { var tag = "" }
    /// A nil-target action.
    struct Copy: Event {}
    /// An action only the delegate's static table handles.
    struct Paste: Event {}
    /// An action only a controller's event proxy handles.
    struct Share: Event {}
    /// A chain event sent by a button.
    struct AddToCart: Event { let sku: String }
    /// A chain event sent by a switch.
    struct FavouriteChanged: Event { let isOn: Bool }

    /// A view that records what the window layer tells it, and whose first-responder answers a
    /// test sets.
    @MainActor
    final class RecordingView: View {
        var log: [String] = []
        var cancellations: [PointerCancellation] = []
        var pointerDisposition: Disposition = .pass
        /// What ``pointerCancelled(_:)`` returns, when set; ``pointerDisposition`` otherwise.
        var cancelledDisposition: Disposition?
        var keyDisposition: Disposition = .pass
        var acceptsFocus = false
        var releasesFocus = true
        /// Run by each pointer method after it logs, before it returns: a test changes the tree
        /// from inside the window layer's calls here (re-entrancy).
        var onPointer: ((PointerEvent) -> Void)?

        override func pointerBegan(_ pointer: PointerEvent) -> Disposition { told(pointer) }
        override func pointerMoved(_ pointer: PointerEvent) -> Disposition { told(pointer) }
        override func pointerEnded(_ pointer: PointerEvent) -> Disposition { told(pointer) }
        override func pointerCancelled(_ pointer: PointerEvent) -> Disposition { told(pointer) }

        /// What every pointer method does (each is called for its own phase): logs
        /// `<phase> <pointer>`, keeps a cancellation's reason, runs ``onPointer``, and answers
        /// the disposition set for the phase.
        private func told(_ pointer: PointerEvent) -> Disposition {
            log.append("\(pointer.phase) \(pointer.pointer.rawValue)")
            let cancelled = pointer.phase == .cancelled
            if cancelled, let reason = pointer.cancellation { cancellations.append(reason) }
            onPointer?(pointer)
            return cancelled ? cancelledDisposition ?? pointerDisposition : pointerDisposition
        }
        override func keyDown(_ key: KeyEvent) -> Disposition {
            log.append("keyDown \(key.key)")
            return keyDisposition
        }
        override var canBecomeFirstResponder: Bool { acceptsFocus }
        override var canResignFirstResponder: Bool { releasesFocus }
    }

    /// A view that lets hits through itself (but not through its subviews), by overriding the
    /// whole hit test.
    @MainActor
    final class PassThroughView: View {
        override func hitTest(_ point: Point) -> View? {
            let hit = super.hitTest(point)
            return hit === self ? nil : hit
        }
    }

    /// The app delegate: an actor, the root, that records every event reaching it and passes
    /// (so an unclaimed event ends `.unhandled` there). It handles `Paste` from its static table.
    actor AppDelegate: Responder {
        private(set) var seen: [String] = []
        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }
        nonisolated var label: String { "AppDelegate" }

        static let strategies = Strategies<AppDelegate> {
            $0.on(Paste.self) { delegate, _, _ in
                delegate.seen.append("Paste")
                return .handled
            }
            $0.onAnyEvent { delegate, event, _ in
                delegate.seen.append(event.traceName)
                return .pass
            }
        }
    }

    /// An event proxy beside a controller, with its own static table.
    actor ShareProxy: Responder {
        private(set) var shared = 0
        var next: (any Responder)? { nil }
        static let strategies = Strategies<ShareProxy> {
            $0.on(Share.self) { proxy, _, _ in
                proxy.shared += 1
                return .handled
            }
        }
    }

    /// A tracer that records the label of every responder visited, in order, and the outcome
    /// of every send that finished.
    final class HopRecorder: Tracer {
        private let hops = Locked<[String]>([])
        private let outcomes = Locked<[Outcome]>([])

        var labels: [String] { hops.withLock { $0 } }

        /// The outcomes of the sends that finished, in order.
        var finished: [Outcome] { outcomes.withLock { $0 } }

        func reset() {
            hops.withLock { $0.removeAll() }
            outcomes.withLock { $0.removeAll() }
        }

        func record(_ event: TraceEvent) {
            switch event {
            case .hopEntered(let hop): hops.withLock { $0.append(hop.responder.label) }
            case .finished(let outcome): outcomes.withLock { $0.append(outcome) }
            default: break
            }
        }
    }

    /// An application with a delegate and a hop recorder, one window (0, 0, 400, 400) and a
    /// root controller whose view fills it.
    @MainActor
    struct Scene {
        let recorder = HopRecorder()
        let delegate = AppDelegate()
        let app: Application
        let window: Window
        let controller: ViewController

        /// The scene; `deadLetters` is the application's system's dead-letter sink (none by
        /// default), `runsCapturePhase` and `middleware` are its interception settings (none by
        /// default), and `clock` its clock (a `ManualClock` for gestures' timers).
        init(
            withDelegate: Bool = true, deadLetters: DeadLetter.Sink? = nil,
            runsCapturePhase: Bool = false, middleware: [any HopMiddleware] = [],
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            app = Application(
                delegate: withDelegate ? delegate : nil,
                system: EventSystem(
                    tracer: recorder, deadLetters: deadLetters, runsCapturePhase: runsCapturePhase,
                    middleware: middleware, clock: clock),
                label: "app")
            window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "window")
            controller = ViewController(view: View(label: "rootView"), label: "controller")
            window.rootController = controller
            app.addWindow(window)
        }

        /// The options that give a test's own send the scene's tracer.
        var options: SendOptions { SendOptions(tracer: recorder) }

        /// Adds `view` to the root controller's view, and returns it.
        @discardableResult
        func add<V: View>(_ view: V) -> V {
            controller.view.addSubview(view)
            return view
        }
    }

    /// A scene with a "Buy" button at (100, 100, 40 × 20) that sends `AddToCart` on tap, and a
    /// favourite switch at (200, 100, 50 × 30) that sends `FavouriteChanged`. Nobody handles
    /// either unless the scene records them or a test registers a handler.
    @MainActor
    struct ShopScene {
        /// What the root controller received of the chain events, when the scene records them.
        @MainActor
        final class Received {
            var skus: [String] = []
            var favourites: [Bool] = []
        }

        let scene = Scene()
        let buy = Button(frame: Rect(x: 100, y: 100, width: 40, height: 20), title: "Buy")
        let favourite = Switch(frame: Rect(x: 200, y: 100, width: 50, height: 30), label: "favourite")
        let onBuy = Point(x: 110, y: 110)
        let onFavourite = Point(x: 210, y: 110)
        let received = Received()

        /// The scene; with `recordingChainEvents`, the root controller handles both chain events,
        /// noting them in ``received``.
        init(recordingChainEvents: Bool = false) {
            scene.controller.view.addSubviews(buy, favourite)
            buy.addChainEvent(for: .tap) { button in AddToCart(sku: "sku-\(button.title)") }
            favourite.addChainEvent(for: .valueChanged) { toggle in FavouriteChanged(isOn: toggle.isOn) }
            guard recordingChainEvents else { return }
            let received = received
            scene.controller.strategies.on(AddToCart.self) { _, event, _ in
                received.skus.append(event.sku)
                return .handled
            }
            scene.controller.strategies.on(FavouriteChanged.self) { _, event, _ in
                received.favourites.append(event.isOn)
                return .handled
            }
        }
    }
}

extension View {
    /// Adds each of `views` as a subview, in order.
    func addSubviews(_ views: View...) {
        for view in views { addSubview(view) }
    }

    /// Registers a pointer handler on this view that parks each of its `phase` events until the
    /// returned gate opens, and passes every pointer event on (to the view's pointer methods).
    func parkPointerEvents(_ phase: PointerPhase) -> Gate {
        let gate = Gate()
        strategies.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == phase { try await gate.pass() }
            return .pass
        }
        return gate
    }
}

extension Window {
    /// Dispatches `phase` of the primary pointer from a task of its own, so the test goes on
    /// while the event is parked.
    func dispatchInTask(_ phase: PointerPhase, at location: Point) -> Task<PointerDelivery?, Never> {
        Task { @MainActor in await dispatch(phase, at: location) }
    }

    /// Dispatches `phase` of the primary pointer from a task of its own, and returns that task
    /// once the event has arrived at `gate` (parked there by a handler).
    func dispatch(
        _ phase: PointerPhase, at location: Point, parkingAt gate: Gate
    ) async throws -> Task<PointerDelivery?, Never> {
        let dispatching = dispatchInTask(phase, at: location)
        try await gate.waitForArrivals(1)
        return dispatching
    }
}
