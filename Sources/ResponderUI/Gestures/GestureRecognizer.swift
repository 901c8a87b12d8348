/// Interprets the pointer sequences that start on its view (or on a view below it) as one gesture
/// — a tap, a long press, a pan, a swipe — and, when it recognizes it, sends chain events up the
/// responder chain from its view: the window layer's `UIGestureRecognizer`.
///
/// ```swift
/// let pan = PanGestureRecognizer(label: "scroll")
/// pan.addChainEvent { pan in Scrolled(by: pan.translation(in: nil), state: pan.state) }
/// list.addGestureRecognizer(pan)
/// ```
///
/// A recognizer gets each pointer event before the views do (``pointerBegan(_:)``…). It starts
/// an *attempt* at the first pointer it gets, and each attempt ends in exactly one terminal
/// ``state`` — recognized, ended, cancelled or failed — recorded with its reason in
/// ``lastAttempt``. Once the attempt's pointers are all up, it resets to
/// ``GestureRecognizer/State/possible``.
///
/// Where several recognizers get the same pointer, they compete in that pointer's arena (see
/// Docs/WindowLayer.md, "Gestures"): the first to recognize wins it and the others fail, unless
/// their delegates let them recognize together. ``require(toFail:)`` makes one wait for
/// another to fail. A recognizer that wins with ``cancelsTouchesInView`` set takes its pointers'
/// sequences from the views: each view the sequence was bound to gets one
/// ``PointerPhase/cancelled`` (``PointerCancellation/gestureRecognized(by:)``) and nothing after.
///
/// ## Writing a recognizer
/// Subclass it, override the pointer methods, and set ``state`` from them (or from a timer
/// made with ``schedule(after:_:)``): `.began` or `.recognized` to claim the gesture, `.changed`
/// as it goes on, `.ended`, `.failed`. Keep per-attempt data in the subclass and clear it in
/// ``reset()``. ``recognizeWhenUnopposed()`` recognizes a discrete gesture only once every
/// competitor has failed or the arena is swept in its favour — what ``TapGestureRecognizer``
/// does.
@MainActor
open class GestureRecognizer: ChainEventSource, CustomStringConvertible {
    /// The name traces, outcomes and cancellation reasons use (the type's name if none was
    /// given).
    public nonisolated let label: String

    /// The view the recognizer is attached to (``View/addGestureRecognizer(_:)``).
    public internal(set) weak var view: View?

    /// Whether the recognizer takes part. Disabling it ends an attempt under way (cancelled if
    /// it had begun, failed otherwise, ``GestureAttempt/Reason/removed``).
    public final var isEnabled = true {
        didSet {
            if oldValue, !isEnabled { coordinator?.recognizerLeft(self, reason: .removed) }
        }
    }

    /// Whether winning takes the pointer sequences from the views (`true`, UIKit's default):
    /// each view they were bound to is told `cancelled`, and gets nothing more of them. When
    /// `false`, the views go on receiving the sequences alongside the recognizer.
    public final var cancelsTouchesInView = true

    /// Whether the views get a sequence only once this recognizer has failed (`false` by
    /// default): its phases are held back while the recognizer may still recognize, sent in
    /// order when it fails (or when the pointer lifts), and dropped — the views never hear of the
    /// sequence — when it wins with ``cancelsTouchesInView``.
    public final var delaysTouchesBegan = false

    /// Whether a view's `ended` waits while this recognizer may still recognize (`true` by
    /// default, as in UIKit): when a pointer it tracks lifts and it is undecided (a double tap
    /// between its taps, a tap waiting for its arena), the views' `ended` is held back; if it
    /// then recognizes (with ``cancelsTouchesInView``), the view is told `cancelled`
    /// (`gestureRecognized(by:)`) instead, and if it fails, the held `ended` is sent then.
    public final var delaysTouchesEnded = true

    /// Decides whether the recognizer may begin and which recognizers it may recognize with,
    /// and hears each attempt's end.
    public final weak var delegate: (any GestureRecognizerDelegate)?

    /// How the last attempt ended, or `nil` before the first one ended.
    public private(set) final var lastAttempt: GestureAttempt?

    /// The outcomes of the chain events sent for the latest state change that sent any, once
    /// they have ended.
    public private(set) final var lastOutcomes: [Outcome] = []

    /// A recognizer named `label` (its type's name if `nil`), to attach to a view.
    public init(label: String? = nil) {
        self.label = label ?? String(describing: Self.self)
    }

    /// The ``label``.
    public nonisolated var description: String { label }

    // MARK: State

    /// Where the recognizer is in its attempt.
    ///
    /// Subclasses set it, from their pointer methods and timers; others only read it. Setting
    /// `.began` or `.recognized` *claims* the gesture: the recognizer wins at once unless a
    /// recognizer it requires to fail may still recognize (it waits, still
    /// ``GestureRecognizer/State/possible``), its delegate declines (it fails), or it has lost its arena already.
    /// A transition the state diagram does not have (see ``GestureRecognizer/State``) is ignored.
    public final var state: State {
        get { storedState }
        set { request(newValue) }
    }

    // The coordinator's bookkeeping, per attempt.

    /// The state as the coordinator has settled it.
    final var storedState: State = .possible
    /// A claim waiting for the arena or a requirement.
    final var pendingClaim: PendingClaim?
    /// The pointers of the attempt still down, with their last location (window coordinates).
    final var pointers: PointerLocations = [:]
    /// The window coordinating the attempt under way, if any.
    final weak var coordinator: GestureCoordinator?
    /// The timers of the attempt's window's event system: its clock.
    final var timers: (any TimerScheduler)?
    /// Whether the recognizer holds its arenas open past their pointers' end.
    final var holdsArenas = false
    /// Whether the recognizer asked, in its `pointerBegan`, to end this attempt and start the
    /// next with that pointer (``startOver()``).
    final var startsOver = false
    /// Why the attempt ends, while the coordinator tells the recognizer of a cancellation.
    final var endingReason: GestureAttempt.Reason?
    /// The views the attempt's pointers went down on.
    final var hitViews: [View] = []
    /// The recognizers this one waits for (``require(toFail:)``).
    final var requirements: [WeakRecognizer] = []
    /// The attempt's timers still to fire, by key, with their calls.
    private var pendingTimers: [Int: (id: TimerID, fire: @MainActor () -> Void)] = [:]
    /// The key of the next timer (``schedule(after:_:)``).
    private var nextTimerKey = 0
    /// The chain events to send on each state change.
    private var chainEvents: [@MainActor (GestureRecognizer) -> (any Event)?] = []
    /// The sends of chain events, one batch per state change, in order. A batch sent from
    /// inside one of this recognizer's own batches (a handler of its chain event tapped the
    /// window again, and it recognized that tap) runs beside: the batch under way waits for it.
    final let chainEventLane = SendLane(startsImmediately: false)

    /// A claim not granted yet.
    struct PendingClaim {
        /// `.began` or `.recognized`.
        var state: State
        /// Whether it waits until no competitor is left (``recognizeWhenUnopposed()``).
        var waitsForArena: Bool
        /// Whether the delegate and the views were asked already, and let it begin (a sweep
        /// asks before it picks its winner): they are not asked twice.
        var wasAllowed = false
    }

    /// Whether the recognizer is in an attempt (it has a coordinator until it resets).
    final var isInAttempt: Bool { coordinator != nil }

    private func request(_ newState: State) {
        guard let coordinator else { return }  // no attempt: nothing to change
        coordinator.recognizer(self, requests: newState)
    }

    /// Recognizes the discrete gesture once nothing can defeat it: every competitor for its
    /// pointers has failed (or may recognize with it), or their arenas were swept in its
    /// favour. Meanwhile the state stays ``GestureRecognizer/State/possible`` and another recognizer may still win.
    public final func recognizeWhenUnopposed() {
        guard let coordinator, storedState == .possible else { return }
        pendingClaim = PendingClaim(state: .recognized, waitsForArena: true)
        coordinator.settle()
    }

    /// Keeps the arenas of the attempt's pointers open after those pointers lifted, so that
    /// they are not swept (a double tap between its taps). Released when the attempt ends, or by
    /// ``releaseArenas()``.
    public final func holdArenas() {
        guard isInAttempt, !storedState.isTerminal else { return }
        holdsArenas = true
    }

    /// Lets the arenas this recognizer held be swept.
    public final func releaseArenas() {
        guard holdsArenas else { return }
        holdsArenas = false
        coordinator?.settle()
    }

    // MARK: Requirements

    /// Makes this recognizer wait for `other` to fail before it recognizes: a single tap that
    /// waits for a double tap. If `other` begins or recognizes, this one fails
    /// (``GestureAttempt/Reason/requirementRecognized(_:)``). A recognizer that is not in an
    /// attempt does not hold this one back.
    ///
    /// ```swift
    /// try singleTap.require(toFail: doubleTap)
    /// ```
    ///
    /// - Throws: ``GestureRequirementError`` when `other` is this recognizer, or already waits
    ///   for this one (directly or through others): they would wait for each other forever.
    public final func require(toFail other: GestureRecognizer) throws(GestureRequirementError) {
        if other === self { throw .requiresItself }
        if other.waits(for: self) { throw .cycle }
        requirements.removeAll { $0.recognizer == nil || $0.recognizer === other }
        requirements.append(WeakRecognizer(other))
    }

    /// The recognizers this one waits for, still alive.
    final var requiredToFail: [GestureRecognizer] { requirements.compactMap(\.recognizer) }

    private func waits(for other: GestureRecognizer, visited: Set<ObjectIdentifier> = []) -> Bool {
        guard !visited.contains(ObjectIdentifier(self)) else { return false }
        let visited = visited.union([ObjectIdentifier(self)])
        return requiredToFail.contains { $0 === other || $0.waits(for: other, visited: visited) }
    }

    /// Whether this recognizer and `other`, which recognizes, may recognize together: either
    /// delegate says so, or `other` cannot prevent this one (``canPrevent(_:)``,
    /// ``canBePrevented(by:)``).
    final func recognizesSimultaneously(with other: GestureRecognizer) -> Bool {
        delegate?.gestureRecognizer(self, shouldRecognizeSimultaneouslyWith: other) == true
            || other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: self) == true
            || !other.canPrevent(self) || !canBePrevented(by: other)
    }

    /// Whether this recognizer, recognizing, defeats `other` competing for the same pointer
    /// (UIKit's rule for subclasses; delegates decide case by case). `true` by default; a
    /// pinch and a rotation return `false` for a pan, a pinch or a rotation.
    ///
    /// ```swift
    /// final class TwoFingerScroll: PanGestureRecognizer {
    ///     override func canPrevent(_ other: GestureRecognizer) -> Bool { !(other is PinchGestureRecognizer) }
    /// }
    /// ```
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }

    /// Whether `other`, recognizing, may defeat this recognizer. `true` by default; see
    /// ``canPrevent(_:)``.
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }

    /// Ends this attempt (failed) and starts the next with the pointer going down now, which
    /// the next attempt gets as its first `pointerBegan`: a tap whose next tap lands too far
    /// from the first (UIKit restarts it with that tap). Call it from ``pointerBegan(_:)``.
    final func startOver() {
        startsOver = true
        state = .failed
    }

    // MARK: Pointer methods

    /// A pointer of the attempt went down (the first one starts the attempt). Does nothing by
    /// default.
    open func pointerBegan(_ pointer: PointerEvent) {}

    /// A pointer of the attempt moved. Does nothing by default.
    open func pointerMoved(_ pointer: PointerEvent) {}

    /// A pointer of the attempt lifted. Does nothing by default.
    open func pointerEnded(_ pointer: PointerEvent) {}

    /// A pointer sequence of the attempt was cancelled (``PointerEvent/cancellation`` says
    /// why). The attempt ends whatever this does: if it did not set a terminal state, the
    /// recognizer is cancelled (had it begun) or fails. Does nothing by default.
    open func pointerCancelled(_ pointer: PointerEvent) {}

    /// Called when the recognizer goes back to ``GestureRecognizer/State/possible`` after an attempt: clear the
    /// attempt's data here. The attempt's timers are already cancelled. Does nothing by default.
    open func reset() {}

    // MARK: Reading the attempt

    /// How many pointers of the attempt are down.
    public final var numberOfPointers: Int { pointers.count }

    /// The centroid of the attempt's pointers that are down, in `view`'s coordinates (the
    /// window's when `nil`); `.zero` when none is.
    public final func location(in view: View?) -> Point {
        guard let centroid = pointers.centroid else { return .zero }
        return view.map { $0.convert(centroid, from: nil) } ?? centroid
    }

    /// The attempt's pointers that are down, in id order.
    public final var activePointers: [PointerID] {
        pointers.pointers.sorted { $0.rawValue < $1.rawValue }
    }

    /// Where `pointer` of the attempt was last, in `view`'s coordinates (the window's when
    /// `nil`); `.zero` when it is not down.
    public final func location(ofPointer pointer: PointerID, in view: View? = nil) -> Point {
        let location = pointers[pointer] ?? .zero
        return view.map { $0.convert(location, from: nil) } ?? location
    }

    /// The time on the clock of the recognizer's window: its event system's
    /// (`EventSystem/now`; a `ManualClock` given to `EventSystem(clock:)` in tests).
    public final var now: EventSystem.Instant {
        (timers ?? view?.window?.currentEventSystem.timers)?.now ?? EventSystem.Instant(offset: .zero)
    }

    /// Calls `fire`, on the main actor, after `delay` on the clock of the window's event system,
    /// unless the attempt ends first: the timers of an attempt are cancelled when it reaches a
    /// terminal state. Does nothing outside an attempt.
    ///
    /// On a test clock, the clock's `advance(by:)` returns once `fire` has run and the chain
    /// events it made the recognizers send have ended.
    public final func schedule(after delay: Duration, _ fire: @escaping @MainActor () -> Void) {
        guard isInAttempt, let timers else { return }
        let key = nextTimerKey
        nextTimerKey += 1
        let start = timers.now
        let purpose = TimerPurpose.other(
            "a timer of gesture recognizer \(label) (\(type(of: self))), set at \(start) for \(delay)")
        // The call is kept here, on the main actor, and looked up by key when the timer fires: a
        // timer cancelled once its scheduler has let it go (a real clock's fired timer whose work
        // has not reached the main actor yet) finds nothing to call.
        let id = timers.schedule(at: start + delay, for: purpose) { [weak self] in
            await self?.fireTimer(key)
        }
        pendingTimers[key] = (id, fire)
    }

    /// Makes the call of timer `key` unless it was cancelled, then waits until the chain events
    /// and held phases it caused have ended their way up the chain.
    private func fireTimer(_ key: Int) async {
        guard let timer = pendingTimers.removeValue(forKey: key) else { return }
        let window = coordinator?.window
        timer.fire()
        await window?.gestureEventsSent()
    }

    /// Whether a timer of the attempt is still to fire.
    final var hasPendingTimers: Bool { !pendingTimers.isEmpty }

    /// Cancels every timer of the attempt.
    final func cancelTimers() {
        for timer in pendingTimers.values { timers?.cancel(timer.id) }
        pendingTimers = [:]
    }

    /// Records the attempt's end and tells the delegate.
    final func recordEnd(_ attempt: GestureAttempt) {
        lastAttempt = attempt
        delegate?.gestureRecognizer(self, didEnd: attempt)
    }

    // MARK: Chain events

    /// Registers a chain event maker; called through ``ChainEventSource``.
    final func register(_ make: @escaping @MainActor (GestureRecognizer) -> (any Event)?) {
        chainEvents.append(make)
    }

    /// Removes every chain event registered.
    public final func removeChainEvents() {
        chainEvents = []
    }

    /// Builds the chain events for `state` now, and sends them up the chain from the view, in
    /// order, after those of earlier states. While a window delivers a pointer event, each is
    /// reported in that delivery's ``PointerDelivery/triggered``.
    final func sendChainEvents(for state: State) {
        guard !chainEvents.isEmpty, let view else { return }
        let events = chainEvents.compactMap { $0(self) }
        guard !events.isEmpty else { return }
        let collector = TriggeredChainEvents.current
        chainEventLane.enqueue {
            var outcomes: [Outcome] = []
            for event in events {
                let outcome = await TriggeredChainEvents.$current.withValue(nil) { await view.send(event) }
                outcomes.append(outcome)
                collector?.append(
                    ChainEventDelivery(
                        sender: view, source: .gesture(self, state), event: event, outcome: outcome))
            }
            self.lastOutcomes = outcomes
        }
    }
}

/// A recognizer held weakly.
struct WeakRecognizer {
    weak var recognizer: GestureRecognizer?

    init(_ recognizer: GestureRecognizer) {
        self.recognizer = recognizer
    }
}
