/// The top of a view tree, attached to an ``Application``: it turns raw pointer and key input
/// into chain events, tracks pointer sequences, and holds the first responder.
///
/// A window is a ``View``: controllers' root views and views added straight to it (popups,
/// toasts) are its subviews. Its next responder is its application; once the window is removed
/// from the application (``Application/removeWindow(_:)``) it has none, and events still in
/// flight below it end `Outcome.interrupted(_:)` at the window — except the `began` and
/// `moved` of the pointer sequences that detaching cancels, which the window withdraws (they end
/// `Outcome.cancelled(_:)`, reason `Outcome.Stop.Reason.withdrawn`; see
/// ``dispatch(_:at:pointer:)``).
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
    /// One pointer sequence in progress: the view it is bound to, where it was last, and the
    /// withdrawal signals of its events still under way.
    private struct PointerSequence {
        /// The view hit at `began`, or the ancestor that took the sequence over since.
        var view: View
        var location: Point
        /// The signals of this sequence's `began` and `moved` events whose sends have not
        /// returned yet, by send token (see `nextSendToken`). Each send removes its own
        /// entry when it returns.
        var eventsUnderWay: [Int: CancellationSignal] = [:]

        /// Withdraws every event of this sequence still under way (each stops before its next
        /// hop, ending `Outcome.cancelled(_:)` with reason `Outcome.Stop.Reason.withdrawn`)
        /// and forgets them. Sets flags only: runs no one else's code.
        mutating func withdrawEventsUnderWay() {
            for signal in eventsUnderWay.values { signal.cancel(.withdrawn) }
            eventsUnderWay.removeAll()
        }
    }

    /// The application this window is attached to.
    public internal(set) weak var application: Application?
    /// The responder key events start at, and nil-target actions with it. Changed by
    /// ``InterfaceResponder/becomeFirstResponder()`` and
    /// ``InterfaceResponder/resignFirstResponder()``, and set to `nil` when the first responder
    /// leaves the window; it is already up to date when the responders' hooks run. A window
    /// detached from its application keeps it.
    public internal(set) weak var firstResponder: InterfaceResponder?

    private var sequences: [PointerID: PointerSequence] = [:]
    /// The token of the next `began` or `moved` send, unique in this window, so a send that
    /// returns removes its own signal even if its pointer has begun a new sequence since.
    private var nextSendToken = 0

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
        sequences.keys.sorted { $0.rawValue < $1.rawValue }
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
        sequences[pointer]?.view
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
    /// - Returns: what was sent where, its outcome, and the chain events it triggered; `nil`
    ///   when nothing was sent (a `began` outside every view, or a later phase of a pointer that
    ///   has no sequence).
    @discardableResult
    public func dispatch(
        _ phase: PointerPhase,
        at location: Point,
        pointer: PointerID = .primary
    ) async -> PointerDelivery? {
        let target: View
        switch phase {
        case .began:
            if sequences[pointer] != nil {
                cancelSequences(reason: .system) { id, _ in id == pointer }
            }
            guard let hit = hitTest(location) else { return nil }
            sequences[pointer] = PointerSequence(view: hit, location: location)
            target = hit
        case .moved:
            guard let sequence = sequences[pointer] else { return nil }
            sequences[pointer]?.location = location
            // This move supersedes the earlier phases still under way: none of them may reach a
            // responder after it.
            sequences[pointer]?.withdrawEventsUnderWay()
            target = sequence.view
        case .ended, .cancelled:
            // Claimed before it is sent: a handler that removes the bound view (or detaches the
            // window) while this is delivered finds no sequence to cancel, so the view gets no
            // `cancelled` after its `ended`. A `moved` leaves the sequence in the table, so such
            // a handler cancels it, once.
            guard var sequence = sequences.removeValue(forKey: pointer) else { return nil }
            // The end supersedes the earlier phases still under way: none reaches a responder
            // after it.
            sequence.withdrawEventsUnderWay()
            target = sequence.view
        }
        let event = PointerEvent(
            pointer: pointer, phase: phase, location: location,
            cancellation: phase == .cancelled ? .system : nil)
        var options = SendOptions()
        var token: Int?
        if phase == .began || phase == .moved {
            // The sequence is in the table (it was just bound or looked up, and nothing ran
            // since), so the signal is where a later phase or a cancellation will find it.
            let signal = CancellationSignal()
            let sendToken = nextSendToken
            nextSendToken += 1
            sequences[pointer]?.eventsUnderWay[sendToken] = signal
            options.withdrawal = signal
            token = sendToken
        }
        let triggered = TriggeredChainEvents()
        let outcome = await TriggeredChainEvents.$current.withValue(triggered) {
            await target.send(event, options: options)
        }
        if let token {
            // A no-op when the sequence has ended (or a new one holds the pointer): the token is
            // this send's own.
            sequences[pointer]?.eventsUnderWay[token] = nil
        }
        return PointerDelivery(
            target: target, event: event, outcome: outcome, triggered: triggered.deliveries)
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
        guard await dispatch(.began, at: location, pointer: pointer) != nil else { return nil }
        return await dispatch(.ended, at: location, pointer: pointer)
    }

    // MARK: Taking over

    /// Binds `pointer`'s sequence to `taker`, an ancestor of the view it is bound to, and tells
    /// that view (see ``View/takeOver(_:)``): withdraws the sequence's events under way, re-binds
    /// it, then tells the old view and, while they pass, the responders after it that are still
    /// below the taker.
    ///
    /// Re-binding before anyone is told is what keeps each view told once. A told responder's
    /// ``InterfaceResponder/pointerCancelled(_:)`` may change the tree or take over again: it
    /// finds the sequence bound to the taker, so removing the taker cancels it as the taker's
    /// (the taker is told), removing the old view finds nothing to cancel, and a further
    /// ancestor takes it from the taker.
    func takeOver(_ pointer: PointerID, by taker: View) throws(PointerTakeOverError) {
        guard taker.window === self else { throw .notInWindow }
        guard let sequence = sequences[pointer] else { throw .noSequence }
        let old = sequence.view
        guard old !== taker else { throw .alreadyBound }
        guard old.isDescendant(of: taker) else { throw .notAnAncestor }
        // Withdrawn first, the event being delivered too (a handler of it may be the caller): the
        // responders below the taker are about to be told `cancelled`, and an event still on its
        // way up through them would reach them after it.
        sequences[pointer]?.withdrawEventsUnderWay()
        sequences[pointer]?.view = taker
        Self.tellCancelled(
            PointerEvent(
                pointer: pointer, phase: .cancelled, location: sequence.location,
                cancellation: .takenOver),
            from: old, below: taker)
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
        cancelSequences(reason: reason) { _, sequence in sequence.view.isDescendant(of: root) }
        if let firstResponder, firstResponder.window !== self {
            self.firstResponder = nil
            firstResponder.didResignFirstResponder()
        }
    }

    /// Cancels every pointer sequence in progress, telling each bound view.
    func cancelAllSequences(reason: PointerCancellation) {
        cancelSequences(reason: reason) { _, _ in true }
    }

    /// Cancels the sequences that `matches` selects: claims them all first (they leave the table
    /// before anyone is told), withdraws their events still under way, then tells each bound
    /// view, in pointer-id order.
    ///
    /// Claiming first is what makes each sequence end once. A view's
    /// ``InterfaceResponder/pointerCancelled(_:)`` may change the tree (remove another bound view,
    /// remove its own ancestor, detach the window), which cancels again from inside this loop;
    /// that nested cancellation only finds the sequences no one has claimed yet, so it never
    /// tells a view this loop is about to tell.
    ///
    /// Withdrawing is what keeps `cancelled` last: an event of the sequence whose handler is
    /// parked at an `await` stops at the end of that hop, so no responder that is told here sees
    /// a phase of the sequence afterwards. (Nothing parked can resume while this call runs on the
    /// main actor; withdrawing first keeps that so even if a told responder's code ever yields.)
    private func cancelSequences(
        reason: PointerCancellation,
        where matches: (PointerID, PointerSequence) -> Bool
    ) {
        var claimed = claimSequences(where: matches)
        for index in claimed.indices { claimed[index].sequence.withdrawEventsUnderWay() }
        for (pointer, sequence) in claimed {
            Self.tellCancelled(
                PointerEvent(
                    pointer: pointer, phase: .cancelled, location: sequence.location,
                    cancellation: reason),
                from: sequence.view)
        }
    }

    /// Removes the sequences that `matches` selects from the table and returns them, in
    /// pointer-id order. Runs no one else's code: `matches` must not change the tree.
    private func claimSequences(
        where matches: (PointerID, PointerSequence) -> Bool
    ) -> [(pointer: PointerID, sequence: PointerSequence)] {
        let claimed = sequences.filter { matches($0.key, $0.value) }
            .map { (pointer: $0.key, sequence: $0.value) }
            .sorted { $0.pointer.rawValue < $1.pointer.rawValue }
        for (pointer, _) in claimed { sequences[pointer] = nil }
        return claimed
    }

    /// Tells `view` that its sequence was cancelled, then each interface responder above it in
    /// its chain as it now stands (up to the root of a removed subtree), until one handles it —
    /// the way the other phases bubble, but as plain synchronous calls on the main actor, since
    /// the view has just left its window (or its sequence). (So a control that tracked the
    /// pointer from a subview drops its highlight too.)
    ///
    /// With a `taker` (a take-over), only the responders below it are told: the calls stop at
    /// the first responder that is not (normally the taker itself), since the taker and what is
    /// above it go on receiving the sequence.
    private static func tellCancelled(_ event: PointerEvent, from view: View, below taker: View? = nil) {
        var visited: Set<ObjectIdentifier> = []
        var current: InterfaceResponder? = view
        while let responder = current, visited.insert(ObjectIdentifier(responder)).inserted {
            if let taker, !isResponder(responder, below: taker) { return }
            if responder.pointerCancelled(event).isHandled { return }
            current = responder.next as? InterfaceResponder
        }
    }

    /// Whether `responder` is below `taker`, as the tree now stands: a view of its subtree other
    /// than itself, or a controller whose root view is one.
    private static func isResponder(_ responder: InterfaceResponder, below taker: View) -> Bool {
        guard let view = (responder as? View) ?? (responder as? ViewController)?.view, view !== taker
        else { return false }
        return view.isDescendant(of: taker)
    }
}
