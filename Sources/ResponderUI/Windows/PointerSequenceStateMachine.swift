/// The bookkeeping of a window's pointer sequences, as a state machine with no I/O: each
/// transition (a phase of input, a take-over, a cancellation, a send that returned) updates the
/// state and returns an action saying what the window must do — send this phase to that view,
/// withdraw these signals, tell these views their sequence was cancelled. The window keeps the
/// I/O: hit testing, the sends up the chain, executing the actions.
///
/// Each pointer is in one of two states:
///
/// ```
///            began(on:)                   moved(to:) / takeOver(by:) / claim / release
///   idle ──────────────────▶ tracking ◀────────────────────────────┐
///    ▲                          │  └──────────────────────────────────┘
///    └──────────────────────────┘
///     ended / inputCancelled / cancel(…) (a later began cancels the earlier sequence first)
/// ```
///
/// - **idle**: no sequence; it has no view, no location and no sends under way.
/// - **tracking**: a sequence bound to a view (the view hit at `began`, the ancestor that took
///   it over since, or the view of the gesture recognizer that claimed it), the last location,
///   the withdrawal signal of each of its `began` and `moved` sends that has not returned, and
///   how the views get it (``Reception``): live, held back while a recognizer that delays
///   touches may still recognize, or not at all once a recognizer claimed it.
///
/// The guarantees the actions carry:
/// - every signal a transition takes out of the state is in the action it returns, and is to be
///   withdrawn (`withdrawing`) before the action's phase is sent or anyone is told: a later phase
///   supersedes the earlier ones still under way, and nothing of a sequence reaches a responder
///   after its end;
/// - a sequence leaves the state (becomes idle) in the transition that ends it, before the
///   window sends its end or tells anyone: an end is returned once, so each sequence ends once
///   even when the window's I/O re-enters the machine (a told view removes another bound view,
///   or detaches the window);
/// - ``sendReturned(_:)`` forgets exactly the send it names: a send that returns after its
///   sequence ended, or after its pointer began again, touches nothing.
///
/// `Target` is the window's view type; the machine only stores and compares targets (by
/// identity), and asks the caller about the tree through the closures it is given.
package struct PointerSequenceStateMachine<Target: AnyObject> {
    /// Names one `began` or `moved` send, so that its return forgets its own signal and nothing
    /// else.
    package struct SendToken: Hashable, Sendable {
        /// The pointer whose phase was sent.
        package let pointer: PointerID
        /// Unique in this machine.
        fileprivate let serial: Int
    }

    /// A `began` or `moved` send under way: its token, to report with ``sendReturned(_:)``, and
    /// the signal to send it with (the window's means of withdrawing it).
    package struct UnderWay {
        /// Report it with ``sendReturned(_:)`` when the send returns.
        package let token: SendToken
        /// The send's withdrawal signal (`SendOptions.withdrawal`).
        package let signal: CancellationSignal
    }

    /// One phase of input to send up the chain.
    package struct Send {
        /// The view to send it from: the view the sequence is bound to.
        package let target: Target
        /// The signals of the sequence's earlier events still under way: withdraw them before
        /// sending.
        package let withdrawing: [CancellationSignal]
        /// For a `began` or `moved`: the send's token and signal. `nil` for an `ended` or
        /// `cancelled`, which end the sequence and are never withdrawn.
        package let underWay: UnderWay?
    }

    /// What a phase of input makes the window do.
    package enum InputAction {
        /// Nothing: the pointer has no sequence, or the views do not get this phase now.
        case none
        /// Withdraw, then send the phase.
        case send(Send)

        /// The phase to send, if any.
        package var send: Send? {
            if case .send(let send) = self { send } else { nil }
        }
    }

    /// Why a view is told its sequence was cancelled.
    package enum CancellationKind: Equatable {
        /// The sequence is over for the views (the reason is never
        /// ``PointerCancellation/takenOver``).
        case ended(PointerCancellation)
        /// The sequence goes on, bound to `taker`, an ancestor of the view told: only the
        /// responders below `taker` are to be told.
        case takenOver(by: Target)

        /// The reason the cancelled event carries.
        package var reason: PointerCancellation {
            switch self {
            case .ended(let reason): reason
            case .takenOver: .takenOver
            }
        }

        /// The same reason, or a take-over by the same taker (compared by identity).
        package static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.ended(let left), .ended(let right)): left == right
            case (.takenOver(let left), .takenOver(let right)): left === right
            default: false
            }
        }
    }

    /// One view to tell that its sequence was cancelled.
    package struct Cancellation {
        /// The sequence's pointer.
        package let pointer: PointerID
        /// The view the sequence was bound to: the cancelled event starts there.
        package let target: Target
        /// Where the pointer was last.
        package let location: Point
        package let kind: CancellationKind
    }

    /// What a cancellation, a take-over or a claim makes the window do: withdraw every signal
    /// first, then tell each view, in order.
    package struct CancelAction {
        /// The signals of the cancelled sequences' events still under way.
        package let withdrawing: [CancellationSignal]
        /// The views to tell, in pointer-id order.
        package let tell: [Cancellation]
        /// The pointers whose sequences this ended (a cancellation's, told or not): their
        /// gesture recognizers are to be told too, with the reason. Empty for a take-over or a
        /// claim, which do not end the sequence.
        package let ended: [(pointer: PointerID, reason: PointerCancellation)]

        /// Nothing to do.
        package static var nothing: CancelAction { CancelAction(withdrawing: [], tell: [], ended: []) }
    }

    /// What a `began` makes the window do: tell the view of a sequence it replaces (if one was
    /// begun again while the window hit-tested), then send the `began`.
    package struct BeganAction {
        /// The sequence of the same pointer it replaced, if any: withdraw and tell first.
        package let replaced: CancelAction
        /// The `began` to send; `nil` when the sequence starts held back or claimed.
        package let send: Send?
    }

    /// How a sequence starts for the views.
    package enum Start {
        /// The `began` is sent now.
        case live
        /// The `began` is held back.
        case held
        /// A recognizer on `owner` claimed the sequence before any view heard of it.
        case claimed(owner: Target)
    }

    /// How the views get a tracking sequence.
    package enum Reception {
        /// Each phase is sent to the bound view as it comes.
        case live
        /// The phases are held back (a recognizer that delays touches may still recognize):
        /// nothing has been sent yet; ``release(_:)`` sends them in order.
        case held([Held])
        /// A gesture recognizer claimed the sequence: the views have been told (or, held, never
        /// heard of it), and get nothing more of it.
        case claimed
    }

    /// One phase held back.
    package struct Held: Equatable {
        /// The sequence's pointer.
        package let pointer: PointerID
        /// `began` or `moved`; `ended` for a held end (``holdEnd(_:)``).
        package let phase: PointerPhase
        /// Where the pointer was.
        package let location: Point
    }

    /// A phase held back, released: what it was, and its send.
    package struct Release {
        /// The phase.
        package let held: Held
        /// Its send, to the bound view.
        package let send: Send
    }

    /// A tracking sequence.
    private struct Tracking {
        /// The view the sequence is bound to.
        var bound: Target
        /// Where the pointer was last.
        var location: Point
        /// The signals of its sends under way, by serial.
        var eventsUnderWay: [Int: CancellationSignal]
        /// How the views get it.
        var reception: Reception
    }

    /// One pointer's state.
    private enum PointerState {
        /// No sequence.
        case idle
        /// A sequence in progress.
        case tracking(Tracking)

        /// Whether the pointer's sequence is held back from the views.
        var isHeld: Bool {
            if case .tracking(let sequence) = self, case .held = sequence.reception { true } else { false }
        }
    }

    /// A sequence whose `ended` is held back (``holdEnd(_:)``): over for its pointer, not yet
    /// for its view.
    private struct HeldEnd {
        let id: Int
        let pointer: PointerID
        let bound: Target
        let location: Point
        let eventsUnderWay: [CancellationSignal]
    }

    /// What a held end comes to (``releaseEnd(_:cancelledBy:)``).
    package enum ReleasedEnd {
        /// The view gets its `ended` now: withdraw, then send.
        case ended(Release, withdrawing: [CancellationSignal])
        /// The view is told `cancelled` instead.
        case cancelled(CancelAction)
    }

    /// The tracking pointers; a pointer with no entry is idle.
    private var pointers: [PointerID: PointerState] = [:]
    /// The ends held back, oldest first.
    private var heldEnds: [HeldEnd] = []
    /// How many of ``pointers`` are held back: kept by the one setter, so that asking costs
    /// nothing however many pointers are down.
    private var heldCount = 0
    private var nextSerial = 0

    /// Every pointer idle.
    package init() {}

    private subscript(pointer: PointerID) -> PointerState {
        get { pointers[pointer] ?? .idle }
        set {
            if pointers[pointer]?.isHeld == true { heldCount -= 1 }
            switch newValue {
            case .idle: pointers[pointer] = nil
            case .tracking: pointers[pointer] = newValue
            }
            if newValue.isHeld { heldCount += 1 }
        }
    }

    // MARK: Reading

    /// The tracking pointers, in id order.
    package var activePointers: [PointerID] {
        pointers.keys.sorted { $0.rawValue < $1.rawValue }
    }

    /// The view `pointer`'s sequence is bound to, or `nil` when it is idle.
    package func boundTarget(for pointer: PointerID) -> Target? {
        switch self[pointer] {
        case .idle: nil
        case .tracking(let sequence): sequence.bound
        }
    }

    /// How the views get `pointer`'s sequence, or `nil` when it is idle.
    package func reception(of pointer: PointerID) -> Reception? {
        switch self[pointer] {
        case .idle: nil
        case .tracking(let sequence): sequence.reception
        }
    }

    /// Whether any sequence is held back (no allocation, no sorting).
    package var hasHeldSequences: Bool { heldCount > 0 }

    /// The pointers whose sequences are held back, in id order.
    package var heldPointers: [PointerID] {
        activePointers.filter {
            if case .held = reception(of: $0) { true } else { false }
        }
    }

    /// How many sends of `pointer`'s sequence are under way (0 when it is idle).
    package func eventsUnderWay(for pointer: PointerID) -> Int {
        switch self[pointer] {
        case .idle: 0
        case .tracking(let sequence): sequence.eventsUnderWay.count
        }
    }

    // MARK: Input

    /// `pointer` went down on `target` (the view hit at `location`): the sequence is bound
    /// there. A sequence of the same pointer still tracking (the window cancels it with
    /// ``cancel(reason:where:)`` before it hit-tests; one begun again meanwhile) is replaced and
    /// its view is to be told, with ``PointerCancellation/system``.
    package mutating func began(
        _ pointer: PointerID, on target: Target, at location: Point, start: Start = .live
    ) -> BeganAction {
        let replaced = cancel(reason: .system, includingHeldEnds: false) { id, _ in id == pointer }
        switch start {
        case .live:
            let underWay = makeUnderWay(for: pointer)
            self[pointer] = .tracking(
                Tracking(
                    bound: target, location: location,
                    eventsUnderWay: [underWay.token.serial: underWay.signal],
                    reception: .live))
            return BeganAction(
                replaced: replaced, send: Send(target: target, withdrawing: [], underWay: underWay))
        case .held:
            self[pointer] = .tracking(
                Tracking(
                    bound: target, location: location, eventsUnderWay: [:],
                    reception: .held([Held(pointer: pointer, phase: .began, location: location)])))
            return BeganAction(replaced: replaced, send: nil)
        case .claimed(let owner):
            self[pointer] = .tracking(
                Tracking(bound: owner, location: location, eventsUnderWay: [:], reception: .claimed))
            return BeganAction(replaced: replaced, send: nil)
        }
    }

    /// `pointer` moved to `location`: send the `moved` to the bound view, after withdrawing the
    /// sequence's earlier sends still under way.
    /// A held sequence keeps the `moved`; a claimed one only its location.
    package mutating func moved(_ pointer: PointerID, to location: Point) -> InputAction {
        guard case .tracking(var sequence) = self[pointer] else { return .none }
        sequence.location = location
        switch sequence.reception {
        case .live:
            let underWay = makeUnderWay(for: pointer)
            let withdrawing = Array(sequence.eventsUnderWay.values)
            sequence.eventsUnderWay = [underWay.token.serial: underWay.signal]
            self[pointer] = .tracking(sequence)
            return .send(Send(target: sequence.bound, withdrawing: withdrawing, underWay: underWay))
        case .held(let held):
            sequence.reception = .held(held + [Held(pointer: pointer, phase: .moved, location: location)])
            self[pointer] = .tracking(sequence)
            return .none
        case .claimed:
            self[pointer] = .tracking(sequence)
            return .none
        }
    }

    /// `pointer` lifted (`ended`) or its input cancelled the sequence (a `cancelled` phase): the
    /// sequence ends now, before its end is sent to the bound view, after withdrawing its sends
    /// still under way. A claimed sequence ends with nothing sent; release a held one first
    /// (``release(_:)``), or it ends with nothing sent either.
    package mutating func ended(_ pointer: PointerID) -> InputAction {
        guard case .tracking(let sequence) = self[pointer] else { return .none }
        self[pointer] = .idle
        guard case .live = sequence.reception else { return .none }
        return .send(
            Send(target: sequence.bound, withdrawing: Array(sequence.eventsUnderWay.values), underWay: nil))
    }

    /// `pointer` lifted while a gesture recognizer that may still recognize delays the views'
    /// `ended`: the sequence ends for the pointer now (a new `began` of it starts another), but
    /// its view gets nothing until ``releaseEnd(_:cancelledBy:)``, or a cancellation
    /// (``cancel(reason:where:)``) tells it `cancelled`. Returns the held end's id; `nil`, with
    /// nothing changed, when the sequence is not live (use ``ended(_:)``).
    package mutating func holdEnd(_ pointer: PointerID) -> Int? {
        guard case .tracking(let sequence) = self[pointer], case .live = sequence.reception else {
            return nil
        }
        self[pointer] = .idle
        defer { nextSerial += 1 }
        heldEnds.append(
            HeldEnd(
                id: nextSerial, pointer: pointer, bound: sequence.bound, location: sequence.location,
                eventsUnderWay: Array(sequence.eventsUnderWay.values)))
        return nextSerial
    }

    /// The recognizers held end `id` waited for have decided: the view gets its `ended`, or,
    /// with `reason` (one of them recognized and cancels touches), `cancelled`. `nil` when the
    /// end is no longer held (a cancellation told the view meanwhile).
    package mutating func releaseEnd(_ id: Int, cancelledBy reason: PointerCancellation?) -> ReleasedEnd? {
        guard let index = heldEnds.firstIndex(where: { $0.id == id }) else { return nil }
        let held = heldEnds.remove(at: index)
        guard let reason else {
            let send = Send(target: held.bound, withdrawing: [], underWay: nil)
            return .ended(
                Release(
                    held: Held(pointer: held.pointer, phase: .ended, location: held.location), send: send),
                withdrawing: held.eventsUnderWay)
        }
        let told = Cancellation(
            pointer: held.pointer, target: held.bound, location: held.location, kind: .ended(reason))
        return .cancelled(CancelAction(withdrawing: held.eventsUnderWay, tell: [told], ended: []))
    }

    /// Sends the views what was held back of `pointer`'s sequence, in order, and makes it live:
    /// each returned phase is to be sent in turn (each send withdraws nothing: the earlier ones
    /// are the sequence's own, sent before it). Nothing when the sequence is not held.
    package mutating func release(_ pointer: PointerID) -> [Release] {
        guard case .tracking(var sequence) = self[pointer], case .held(let held) = sequence.reception else {
            return []
        }
        var sends: [Release] = []
        for phase in held {
            let underWay = makeUnderWay(for: pointer)
            sequence.eventsUnderWay[underWay.token.serial] = underWay.signal
            sends.append(
                Release(held: phase, send: Send(target: sequence.bound, withdrawing: [], underWay: underWay)))
        }
        sequence.reception = .live
        self[pointer] = .tracking(sequence)
        return sends
    }

    /// A gesture recognizer on `owner` won `pointer`'s sequence and takes it from the views:
    /// the sequence is bound to `owner` and claimed before the action is returned; the action
    /// withdraws its sends under way and tells the bound view (`reason`) — unless it was held
    /// back, when no view has heard of it and none is told. Nothing for an idle or already
    /// claimed sequence.
    package mutating func claim(
        _ pointer: PointerID, for owner: Target, reason: PointerCancellation
    ) -> CancelAction {
        guard case .tracking(let sequence) = self[pointer] else { return .nothing }
        if case .claimed = sequence.reception { return .nothing }
        return transfer(pointer, sequence, to: owner, telling: .ended(reason), reception: .claimed)
    }

    /// The send `token` names returned: its signal is forgotten. Nothing happens when its
    /// sequence has ended (or its pointer began again) since.
    package mutating func sendReturned(_ token: SendToken) {
        guard case .tracking(var sequence) = self[token.pointer],
            sequence.eventsUnderWay.removeValue(forKey: token.serial) != nil
        else { return }
        self[token.pointer] = .tracking(sequence)
    }

    // MARK: Take-over and cancellation

    /// `taker` takes `pointer`'s sequence over. `encloses(bound)` answers whether the view the
    /// sequence is bound to lies in `taker`'s subtree (below it); it must not change anything.
    ///
    /// On success the sequence is bound to `taker` before the action is returned, so a told view
    /// that takes over again, or removes the taker, finds it there; the action withdraws the
    /// sequence's sends under way and tells the old view, below `taker`. A sequence held back is
    /// re-bound with nobody told (no view has heard of it); a claimed one cannot be taken.
    package mutating func takeOver(
        _ pointer: PointerID, by taker: Target, encloses: (_ bound: Target) -> Bool
    ) -> Result<CancelAction, PointerTakeOverError> {
        guard case .tracking(let sequence) = self[pointer] else { return .failure(.noSequence) }
        if case .claimed = sequence.reception { return .failure(.claimedByGesture) }
        let bound = sequence.bound
        if bound === taker { return .failure(.alreadyBound) }
        if !encloses(bound) { return .failure(.notAnAncestor) }
        return .success(
            transfer(
                pointer, sequence, to: taker, telling: .takenOver(by: taker), reception: sequence.reception))
    }

    /// The one way a sequence changes hands, for a take-over and a gesture recognizer's claim
    /// alike: it is bound to `owner` with `reception` before the action is returned, and the
    /// action withdraws its sends under way and tells the view it was bound to (`kind`) — if
    /// that view heard of it (it was live).
    private mutating func transfer(
        _ pointer: PointerID, _ sequence: Tracking, to owner: Target, telling kind: CancellationKind,
        reception: Reception
    ) -> CancelAction {
        var transferred = sequence
        transferred.bound = owner
        transferred.eventsUnderWay = [:]
        transferred.reception = reception
        self[pointer] = .tracking(transferred)
        let withdrawing = Array(sequence.eventsUnderWay.values)
        guard case .live = sequence.reception else {
            return CancelAction(withdrawing: withdrawing, tell: [], ended: [])
        }
        let told = Cancellation(
            pointer: pointer, target: sequence.bound, location: sequence.location, kind: kind)
        return CancelAction(withdrawing: withdrawing, tell: [told], ended: [])
    }

    /// Cancels the sequences `matches` selects (given each tracking pointer and its bound view;
    /// it must not change anything): they all end now, before anyone is told, so a cancellation
    /// made while the window tells them finds only the sequences nobody has ended yet.
    ///
    /// Held ends (``holdEnd(_:)``) are cancelled too, their views told, unless
    /// `includingHeldEnds` is `false`: a new `began` of a pointer ends the pointer's sequence
    /// still tracking, not the ends held back for earlier ones.
    ///
    /// - Parameter reason: why the sequences are over; never ``PointerCancellation/takenOver``.
    package mutating func cancel(
        reason: PointerCancellation, includingHeldEnds: Bool = true,
        where matches: (PointerID, Target) -> Bool
    ) -> CancelAction {
        precondition(reason != .takenOver, "a take-over does not end the sequence")
        var withdrawing: [CancellationSignal] = []
        var tell: [Cancellation] = []
        var ended: [(pointer: PointerID, reason: PointerCancellation)] = []
        for pointer in activePointers {
            guard case .tracking(let sequence) = self[pointer], matches(pointer, sequence.bound) else {
                continue
            }
            self[pointer] = .idle
            ended.append((pointer, reason))
            withdrawing += sequence.eventsUnderWay.values
            // Only a view that heard of the sequence is told of its end.
            guard case .live = sequence.reception else { continue }
            tell.append(
                Cancellation(
                    pointer: pointer, target: sequence.bound, location: sequence.location,
                    kind: .ended(reason)))
        }
        // Ends held back: their views heard of the sequence and wait for its end; their
        // recognizers are told nothing (the pointer lifted for them).
        for held in heldEnds where includingHeldEnds && matches(held.pointer, held.bound) {
            withdrawing += held.eventsUnderWay
            tell.append(
                Cancellation(
                    pointer: held.pointer, target: held.bound, location: held.location, kind: .ended(reason)))
        }
        if includingHeldEnds { heldEnds.removeAll { matches($0.pointer, $0.bound) } }
        return CancelAction(withdrawing: withdrawing, tell: tell, ended: ended)
    }

    private mutating func makeUnderWay(for pointer: PointerID) -> UnderWay {
        defer { nextSerial += 1 }
        return UnderWay(token: SendToken(pointer: pointer, serial: nextSerial), signal: CancellationSignal())
    }
}
