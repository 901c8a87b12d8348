/// The top of a view tree, attached to an ``Application``: it turns raw pointer and key input
/// into chain events, tracks pointer sequences, and holds the first responder.
///
/// A window is a ``View``: controllers' root views and views added straight to it (popups,
/// toasts) are its subviews. Its next responder is its application; once the window is removed
/// from the application (``Application/removeWindow(_:)``) it has none, and events still in
/// flight below it end `Outcome.interrupted(_:)` at the window, except the events of the
/// cancelled pointer sequences, which the window withdraws (see ``dispatch(_:at:pointer:)``).
///
/// ```swift
/// let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
/// window.rootController = ProductController()
/// app.addWindow(window)
///
/// let delivery = await window.tap(at: Point(x: 300, y: 120))
/// // delivery?.target: the view hit; delivery?.outcome: how the event ended;
/// // delivery?.triggered: the chain events a control it triggered sent, and their outcomes
/// ```
@MainActor
open class Window: View {
    /// The application this window is attached to.
    public internal(set) weak var application: Application?
    /// The responder key events start at, and nil-target actions with it. Changed by
    /// ``InterfaceResponder/becomeFirstResponder()`` and
    /// ``InterfaceResponder/resignFirstResponder()``, and set to `nil` when the first responder
    /// leaves the window; it is already up to date when the responders' hooks run. A window
    /// detached from its application keeps it.
    public internal(set) weak var firstResponder: InterfaceResponder?

    /// The pointer sequences: which view each is bound to, and their sends under way. The window
    /// does the I/O its transitions call for (see ``execute(_:)``).
    private var sequences = PointerSequenceStateMachine<View>()

    /// The gesture recognizers of the window's views at work.
    private(set) lazy var gestures = GestureCoordinator(window: self)

    /// The window's sends that no caller awaits: in order, the phases held back for the views
    /// (``GestureRecognizer/delaysTouchesBegan``, `delaysTouchesEnded`) once released; each on its
    /// own, the `cancelled` of a cancelled or taken-over sequence. Each starts on the main actor
    /// before the call that queues it returns when nothing is ahead of it.
    private let lane = SendLane(startsImmediately: true)

    /// Replaced: the window's gesture recognizers read the clock of its event system (its
    /// application's), and set their timers on it.
    @available(
        *, unavailable,
        message:
            "gesture recognizers read the clock of the window's event system: give the application EventSystem(clock:), a ManualClock in tests"
    )
    public var gestureClock: any GestureClock {
        get { ContinuousGestureClock() }
        set {}
    }

    /// The controller whose view fills the window. Setting it replaces the previous one's view.
    public var rootController: ViewController? {
        didSet {
            guard oldValue !== rootController else { return }
            oldValue?.view.removeFromSuperview()
            if let rootController {
                rootController.view.frame = bounds
                insertSubview(rootController.view, at: 0)
            }
        }
    }

    /// The application, while the window is attached to one.
    open override var next: (any Responder)? { application }

    /// The window itself.
    open override var window: Window? { self }

    /// Whether this is its application's key window.
    public var isKeyWindow: Bool { application?.keyWindow === self }

    /// Makes this window its application's key window (nil-target actions go to its first
    /// responder). Does nothing while the window is not attached.
    public func makeKey() {
        application?.keyWindow = self
    }

    // MARK: Pointer input

    /// The pointers whose sequences are in progress in this window.
    public var activePointers: [PointerID] {
        sequences.activePointers
    }

    /// The view `pointer`'s sequence is bound to, while it is in progress: the view hit at
    /// ``PointerPhase/began``, or the ancestor that took the sequence over since
    /// (``View/takeOver(_:)``).
    ///
    /// ```swift
    /// await window.dispatch(.began, at: buy.convert(Point(x: 5, y: 5), to: nil))
    /// window.boundView(for: .primary)     // buy
    /// try list.takeOver(.primary)
    /// window.boundView(for: .primary)     // list
    /// ```
    public func boundView(for pointer: PointerID) -> View? {
        sequences.boundTarget(for: pointer)
    }

    /// Delivers one phase of one pointer: at ``PointerPhase/began`` the window hit-tests
    /// `location` (window coordinates) and binds the pointer's sequence to the view it finds;
    /// every later phase goes to that view, wherever the pointer is — or, once an ancestor has
    /// taken the sequence over (``View/takeOver(_:)``), to that ancestor. The event is sent up
    /// the chain from that view, in one send from the main actor.
    ///
    /// A phase is never seen after a later one, nor after its sequence's end, by any responder:
    /// each phase withdraws the earlier `began`/`moved` of its sequence that are still under way
    /// (a handler parked at an `await`) before it is sent, and a cancellation or a take-over of
    /// the sequence withdraws them before anyone is told. A withdrawn event stops at the end of
    /// the hop it is in, and its delivery's outcome is `Outcome.cancelled(_:)` with reason
    /// `Outcome.Stop.Reason.withdrawn`. `ended` and `cancelled` are never withdrawn.
    ///
    /// The send returns when the event has finished its way up the chain — including, for an
    /// `ended` that triggers a ``Control``, the chain events the control sends: they are in the
    /// delivery's ``PointerDelivery/triggered``, with their outcomes.
    ///
    /// Gesture recognizers come first (see Docs/WindowLayer.md, "Gestures"): the phase goes to
    /// the recognizers of the bound view and its ancestors, the chain events they send for it
    /// are sent and end, and only then does the phase go to the views — unless a recognizer
    /// took the sequence (``GestureRecognizer/cancelsTouchesInView``) or holds it back
    /// (``GestureRecognizer/delaysTouchesBegan``).
    ///
    /// - Returns: what was sent where, its outcome, and the chain events it triggered (controls'
    ///   and recognizers'); `nil` when no view was sent anything: a `began` outside every view,
    ///   a later phase of a pointer that has no sequence, or a phase the views do not get (taken
    ///   by a recognizer, or held back) — its recognizers' chain events have still ended, with
    ///   their outcomes in ``GestureRecognizer/lastOutcomes``.
    @discardableResult
    public func dispatch(
        _ phase: PointerPhase,
        at location: Point,
        pointer: PointerID = .primary
    ) async -> PointerDelivery? {
        let triggered = TriggeredChainEvents()
        return await TriggeredChainEvents.$current.withValue(triggered) {
            await deliver(phase, at: location, pointer: pointer, collecting: triggered)
        }
    }

    /// ``dispatch(_:at:pointer:)``, with its collector of triggered chain events bound.
    private func deliver(
        _ phase: PointerPhase, at location: Point, pointer: PointerID,
        collecting triggered: TriggeredChainEvents
    ) async -> PointerDelivery? {
        let event = PointerEvent(
            pointer: pointer, phase: phase, location: location,
            cancellation: phase == .cancelled ? .system : nil)
        // Phases released to the views before this one reach them before the recognizers decide
        // anything about this one (a claim would otherwise withdraw them unseen).
        await lane.sent()
        // The gesture recognizers get each phase first; what they decide (a claim, a delay) is
        // in the state machine before the views are sent anything.
        let send: PointerSequenceStateMachine<View>.Send?
        switch phase {
        case .began:
            // An earlier sequence of this pointer ends before the hit test: its view's
            // `pointerCancelled` may change the tree.
            execute(sequences.cancel(reason: .system, includingHeldEnds: false) { id, _ in id == pointer })
            guard let hit = hitTest(location) else { return nil }
            let start = gestures.began(event, on: hit)
            let began = sequences.began(pointer, on: hit, at: location, start: start)
            execute(began.replaced)
            send = began.send
        case .moved:
            gestures.moved(event)
            send = sequences.moved(pointer, to: location).send
        case .ended:
            let undecided = gestures.ended(event)
            // What was held back goes to the views before the end: a delay never outlasts its
            // sequence.
            sendHeldPhases(sequences.release(pointer))
            if !undecided.isEmpty, let id = sequences.holdEnd(pointer) {
                // A recognizer that delays the views' ends may still recognize: the view's
                // `ended` waits for it (released by ``gesturesSettled()``).
                gestures.holdEnd(id, waitingFor: undecided)
                send = nil
            } else {
                // Ended before it is sent: a handler that removes the bound view (or detaches
                // the window) while this is delivered finds no sequence to cancel, so the view
                // gets no `cancelled` after its `ended`. A `moved` leaves the sequence tracking,
                // so such a handler cancels it, once.
                send = sequences.ended(pointer).send
            }
        case .cancelled:
            gestures.sequenceCancelled(pointer, reason: .system)
            send = sequences.ended(pointer).send
        }
        await lane.sent()
        // The chain events the recognizers sent for this phase go up the chain before it.
        await gestures.chainEventsSent()
        guard let send else { return nil }
        // This phase supersedes the earlier ones still under way: none of them may reach a
        // responder after it.
        for signal in send.withdrawing { signal.cancel(.withdrawn) }
        var options = SendOptions()
        options.withdrawal = send.underWay?.signal
        let outcome = await send.target.send(event, options: options)
        if let token = send.underWay?.token {
            // Forgets this send's own signal only; nothing when its sequence has ended since.
            sequences.sendReturned(token)
        }
        await gestures.chainEventsSent()
        return PointerDelivery(
            target: send.target, event: event, outcome: outcome, triggered: triggered.deliveries)
    }

    /// A tap: `began` then `ended` at `location`. Returns the delivery of `ended` (`nil` if
    /// nothing was hit, or the sequence was cancelled in between); on a control, its
    /// ``PointerDelivery/triggered`` holds the chain events the tap made the control send, with
    /// their outcomes.
    ///
    /// ```swift
    /// let delivery = await window.tap(at: buy.convert(Point(x: 5, y: 5), to: nil))
    /// #expect(delivery?.triggered.map(\.outcome.kind) == [.handled])
    /// ```
    @discardableResult
    public func tap(at location: Point, pointer: PointerID = .primary) async -> PointerDelivery? {
        await dispatch(.began, at: location, pointer: pointer)
        // A `began` held back or claimed by a gesture recognizer returns no delivery, yet its
        // sequence is under way.
        guard activePointers.contains(pointer) else { return nil }
        return await dispatch(.ended, at: location, pointer: pointer)
    }

    // MARK: Taking over

    /// Binds `pointer`'s sequence to `taker`, an ancestor of its bound view (see
    /// ``View/takeOver(_:)``): withdraws the sequence's events under way, re-binds it, then sends
    /// the old view a `cancelled` (``PointerCancellation/takenOver``) that the taker's hop ends
    /// (see ``deliverCancellation(_:)``). Re-binding before anyone is told keeps each view told
    /// once, whatever the told responders then do to the tree.
    func takeOver(_ pointer: PointerID, by taker: View) throws(PointerTakeOverError) {
        guard taker.window === self else { throw .notInWindow }
        // The event being delivered is withdrawn too (its handler may be the caller): the
        // responders below the taker must not see it after their `cancelled`.
        let action = try sequences.takeOver(pointer, by: taker) { $0.isDescendant(of: taker) }.get()
        gestures.sequenceTakenOver(pointer, by: taker)
        execute(action)
    }

    // MARK: Key input

    /// Sends a key event up the chain from the first responder (from the window itself when
    /// there is none).
    @discardableResult
    public func dispatch(_ key: KeyEvent) async -> Outcome {
        let start: InterfaceResponder = firstResponder ?? self
        return await start.send(key)
    }

    // MARK: Detaching

    /// The system of the application this window was detached from, until it joins another.
    var systemOfFormerApplication: EventSystem?

    /// The application's system; once detached, the former application's.
    override var currentEventSystem: EventSystem {
        application?.currentEventSystem ?? systemOfFormerApplication ?? .default
    }

    /// Called when `root` and its subtree left this window: cancels the pointer sequences bound
    /// there (each bound view is told), then drops a first responder that is no longer here and
    /// tells it (``InterfaceResponder/didResignFirstResponder()``, with ``firstResponder``
    /// already `nil`; its ``InterfaceResponder/canResignFirstResponder`` is not asked).
    func subtreeDidLeave(_ root: View, reason: PointerCancellation) {
        execute(sequences.cancel(reason: reason) { _, view in view.isDescendant(of: root) })
        gestures.viewsLeft(reason: reason) { $0.isDescendant(of: root) }
        if let firstResponder, firstResponder.window !== self {
            self.firstResponder = nil
            firstResponder.didResignFirstResponder()
        }
    }

    /// Cancels every pointer sequence in progress, telling each bound view.
    func cancelAllSequences(reason: PointerCancellation) {
        execute(sequences.cancel(reason: reason) { _, _ in true })
        gestures.viewsLeft(reason: reason) { _ in true }
    }

    // MARK: Gestures

    /// `recognizer`, on `owner`, won `pointer`'s sequence and cancels touches in views: the
    /// sequence is taken from the views (see ``PointerSequenceStateMachine/claim(_:for:reason:)``).
    func claim(_ pointer: PointerID, for owner: View, by recognizer: GestureRecognizer) {
        execute(sequences.claim(pointer, for: owner, reason: .gestureRecognized(by: recognizer.label)))
    }

    /// The recognizers settled: each sequence held back for them that no recognizer delays any
    /// more goes to the views.
    func gesturesSettled() {
        // Ends held back whose recognizers have all decided: `cancelled` for the view if one of
        // them won and cancels touches, its `ended` otherwise.
        for (id, winner) in gestures.takeDecidedEnds() {
            switch sequences.releaseEnd(id, cancelledBy: winner.map { .gestureRecognized(by: $0.label) }) {
            case .ended(let release, let withdrawing)?:
                for signal in withdrawing { signal.cancel(.withdrawn) }
                sendHeldPhases([release])
            case .cancelled(let action)?:
                execute(action)
            case nil:
                break
            }
        }
        guard sequences.hasHeldSequences else { return }
        for pointer in sequences.heldPointers where !gestures.delaysViews(pointer) {
            sendHeldPhases(sequences.release(pointer))
        }
    }

    /// Waits until the chain events this window's gesture recognizers have sent, and the phases
    /// held back for the views and released since, have ended their way up the chain.
    ///
    /// A delivery (``dispatch(_:at:pointer:)``) waits for those its phase caused; this is for
    /// what a gesture timer caused on a real clock. A test clock's `advance(by:)` waits for
    /// those itself: the chain events a gesture timer's call sends have ended when it returns.
    public func gestureEventsSent() async {
        await lane.sent()
        await gestures.chainEventsSent()
    }

    /// Sends released phases up the chain, in order, after the window's earlier unawaited sends
    /// (its lane).
    ///
    /// When nothing is under way the sends start on the main actor before this returns, as for
    /// a cancellation: the hops that do not suspend have run when it returns, so a recognizer
    /// that claims the sequence right after (a timer due at the same instant) finds the views
    /// told of it, and tells them its end. The window calls this only once the recognizers
    /// have settled, never from inside their calls.
    private func sendHeldPhases(_ sends: [PointerSequenceStateMachine<View>.Release]) {
        guard !sends.isEmpty else { return }
        lane.enqueue { await self.send(sends) }
    }

    /// Sends `released`, in order.
    private func send(_ released: [PointerSequenceStateMachine<View>.Release]) async {
        for release in released {
            let event = PointerEvent(
                pointer: release.held.pointer, phase: release.held.phase, location: release.held.location)
            var options = SendOptions()
            options.withdrawal = release.send.underWay?.signal
            _ = await TriggeredChainEvents.$current.withValue(nil) {
                await release.send.target.send(event, options: options)
            }
            if let token = release.send.underWay?.token { sequences.sendReturned(token) }
        }
    }

    /// Does what a cancellation or a take-over calls for: withdraws every signal, then tells
    /// each view, in order. The state machine has already ended (or re-bound) the sequences, so
    /// a told view that changes the tree cancels only what has not ended yet; withdrawing first
    /// keeps `cancelled` the last phase of its sequence that any responder sees.
    private func execute(_ action: PointerSequenceStateMachine<View>.CancelAction) {
        for signal in action.withdrawing { signal.cancel(.withdrawn) }
        // The recognizers hear of an ended sequence before the views, as of every phase.
        for ended in action.ended { gestures.sequenceCancelled(ended.pointer, reason: ended.reason) }
        for cancellation in action.tell { deliverCancellation(cancellation) }
    }

    /// Sends the `cancelled` event of `cancellation` up the chain from the view it names, like
    /// every other phase, until a responder handles it. For a take-over the send carries the
    /// taker (``PointerTakeOverBoundary``): the first interface responder not below the taker
    /// (normally the taker) ends it without running anything, so only the responders below it
    /// are told.
    ///
    /// The send is one of the window's lane, unordered: it starts on the main actor before this
    /// returns, so the hops that do not suspend have run when this returns, and no delivery
    /// waits for it (a handler parked in it holds up nothing else). Its outcome is reported like
    /// any send's; it collects no triggered chain events.
    private func deliverCancellation(_ cancellation: PointerSequenceStateMachine<View>.Cancellation) {
        let event = PointerEvent(
            pointer: cancellation.pointer, phase: .cancelled, location: cancellation.location,
            cancellation: cancellation.kind.reason)
        var options = SendOptions()
        if case .takenOver(let taker) = cancellation.kind {
            options.info[PointerTakeOverBoundary.self] = PointerTakeOverBoundary(taker: taker)
        }
        let target = cancellation.target
        lane.unordered { await Self.send(event, from: target, options: options) }
    }

    /// Sends a cancellation from `view`, outside any pointer delivery's collector of triggered
    /// chain events.
    private static func send(_ event: PointerEvent, from view: View, options: SendOptions) async {
        _ = await TriggeredChainEvents.$current.withValue(nil) {
            await view.send(event, options: options)
        }
    }
}
