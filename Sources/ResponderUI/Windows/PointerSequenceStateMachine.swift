/// The bookkeeping of a window's pointer sequences, as a state machine with no I/O: each
/// transition (a phase of input, a take-over, a cancellation, a send that returned) updates the
/// state and returns an action saying what the window must do — send this phase to that view,
/// withdraw these signals, tell these views their sequence was cancelled. The window keeps the
/// I/O: hit testing, the sends up the chain, executing the actions.
///
/// Each pointer is in one of two states:
///
/// ```
///            began(on:)                   moved(to:) / takeOver(by:)
///   idle ──────────────────▶ tracking ◀────────────────────────────┐
///    ▲                          │  └──────────────────────────────────┘
///    └──────────────────────────┘
///     ended / inputCancelled / cancel(…) (a later began cancels the earlier sequence first)
/// ```
///
/// - **idle**: no sequence; it has no view, no location and no sends under way.
/// - **tracking**: a sequence bound to a view (the view hit at `began`, or the ancestor that took
///   it over since), the last location, and the withdrawal signal of each of its `began` and
///   `moved` sends that has not returned.
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
        /// Nothing: the pointer has no sequence.
        case none
        /// Withdraw, then send the phase.
        case send(Send)
    }

    /// Why a view is told its sequence was cancelled.
    package enum CancellationKind: Equatable {
        /// The sequence is over (the reason is never ``PointerCancellation/takenOver``).
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

    /// What a cancellation or a take-over makes the window do: withdraw every signal first, then
    /// tell each view, in order.
    package struct CancelAction {
        /// The signals of the cancelled sequences' events still under way.
        package let withdrawing: [CancellationSignal]
        /// The views to tell, in pointer-id order.
        package let tell: [Cancellation]
    }

    /// What a `began` makes the window do: tell the view of a sequence it replaces (if one was
    /// begun again while the window hit-tested), then send the `began`.
    package struct BeganAction {
        /// The sequence of the same pointer it replaced, if any: withdraw and tell first.
        package let replaced: CancelAction
        /// The `began` to send.
        package let send: Send
    }

    /// One pointer's state.
    private enum PointerState {
        /// No sequence.
        case idle
        /// A sequence bound to `bound`, last at `location`, with the signals of its sends under
        /// way by serial.
        case tracking(bound: Target, location: Point, eventsUnderWay: [Int: CancellationSignal])
    }

    /// The tracking pointers; a pointer with no entry is idle.
    private var pointers: [PointerID: PointerState] = [:]
    private var nextSerial = 0

    /// Every pointer idle.
    package init() {}

    private subscript(pointer: PointerID) -> PointerState {
        get { pointers[pointer] ?? .idle }
        set {
            switch newValue {
            case .idle: pointers[pointer] = nil
            case .tracking: pointers[pointer] = newValue
            }
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
        case .tracking(let bound, _, _): bound
        }
    }

    /// How many sends of `pointer`'s sequence are under way (0 when it is idle).
    package func eventsUnderWay(for pointer: PointerID) -> Int {
        switch self[pointer] {
        case .idle: 0
        case .tracking(_, _, let eventsUnderWay): eventsUnderWay.count
        }
    }

    // MARK: Input

    /// `pointer` went down on `target` (the view hit at `location`): the sequence is bound
    /// there. A sequence of the same pointer still tracking (the window cancels it with
    /// ``cancel(reason:where:)`` before it hit-tests; one begun again meanwhile) is replaced and
    /// its view is to be told, with ``PointerCancellation/system``.
    package mutating func began(_ pointer: PointerID, on target: Target, at location: Point) -> BeganAction {
        let replaced = cancel(reason: .system) { id, _ in id == pointer }
        let underWay = makeUnderWay(for: pointer)
        self[pointer] = .tracking(
            bound: target, location: location, eventsUnderWay: [underWay.token.serial: underWay.signal])
        return BeganAction(
            replaced: replaced, send: Send(target: target, withdrawing: [], underWay: underWay))
    }

    /// `pointer` moved to `location`: send the `moved` to the bound view, after withdrawing the
    /// sequence's earlier sends still under way.
    package mutating func moved(_ pointer: PointerID, to location: Point) -> InputAction {
        switch self[pointer] {
        case .idle:
            return .none
        case .tracking(let bound, _, let eventsUnderWay):
            let underWay = makeUnderWay(for: pointer)
            self[pointer] = .tracking(
                bound: bound, location: location, eventsUnderWay: [underWay.token.serial: underWay.signal])
            return .send(
                Send(target: bound, withdrawing: Array(eventsUnderWay.values), underWay: underWay))
        }
    }

    /// `pointer` lifted (`ended`) or its input cancelled the sequence (a `cancelled` phase): the
    /// sequence ends now, before its end is sent to the bound view, after withdrawing its sends
    /// still under way.
    package mutating func ended(_ pointer: PointerID) -> InputAction {
        switch self[pointer] {
        case .idle:
            return .none
        case .tracking(let bound, _, let eventsUnderWay):
            self[pointer] = .idle
            return .send(Send(target: bound, withdrawing: Array(eventsUnderWay.values), underWay: nil))
        }
    }

    /// The send `token` names returned: its signal is forgotten. Nothing happens when its
    /// sequence has ended (or its pointer began again) since.
    package mutating func sendReturned(_ token: SendToken) {
        guard case .tracking(let bound, let location, var eventsUnderWay) = self[token.pointer],
            eventsUnderWay.removeValue(forKey: token.serial) != nil
        else { return }
        self[token.pointer] = .tracking(bound: bound, location: location, eventsUnderWay: eventsUnderWay)
    }

    // MARK: Take-over and cancellation

    /// `taker` takes `pointer`'s sequence over. `encloses(bound)` answers whether the view the
    /// sequence is bound to lies in `taker`'s subtree (below it); it must not change anything.
    ///
    /// On success the sequence is bound to `taker` before the action is returned, so a told view
    /// that takes over again, or removes the taker, finds it there; the action withdraws the
    /// sequence's sends under way and tells the old view, below `taker`.
    package mutating func takeOver(
        _ pointer: PointerID, by taker: Target, encloses: (_ bound: Target) -> Bool
    ) -> Result<CancelAction, PointerTakeOverError> {
        switch self[pointer] {
        case .idle:
            return .failure(.noSequence)
        case .tracking(let bound, let location, let eventsUnderWay):
            if bound === taker { return .failure(.alreadyBound) }
            if !encloses(bound) { return .failure(.notAnAncestor) }
            self[pointer] = .tracking(bound: taker, location: location, eventsUnderWay: [:])
            return .success(
                CancelAction(
                    withdrawing: Array(eventsUnderWay.values),
                    tell: [
                        Cancellation(
                            pointer: pointer, target: bound, location: location, kind: .takenOver(by: taker))
                    ]))
        }
    }

    /// Cancels the sequences `matches` selects (given each tracking pointer and its bound view;
    /// it must not change anything): they all end now, before anyone is told, so a cancellation
    /// made while the window tells them finds only the sequences nobody has ended yet.
    ///
    /// - Parameter reason: why the sequences are over; never ``PointerCancellation/takenOver``.
    package mutating func cancel(
        reason: PointerCancellation, where matches: (PointerID, Target) -> Bool
    ) -> CancelAction {
        precondition(reason != .takenOver, "a take-over does not end the sequence")
        var withdrawing: [CancellationSignal] = []
        var tell: [Cancellation] = []
        for pointer in activePointers {
            guard case .tracking(let bound, let location, let eventsUnderWay) = self[pointer],
                matches(pointer, bound)
            else { continue }
            self[pointer] = .idle
            withdrawing += eventsUnderWay.values
            tell.append(
                Cancellation(pointer: pointer, target: bound, location: location, kind: .ended(reason)))
        }
        return CancelAction(withdrawing: withdrawing, tell: tell)
    }

    private mutating func makeUnderWay(for pointer: PointerID) -> UnderWay {
        defer { nextSerial += 1 }
        return UnderWay(token: SendToken(pointer: pointer, serial: nextSerial), signal: CancellationSignal())
    }
}
