/// A window's gesture recognizers at work: it gives them each pointer event before the views get
/// it, runs the arenas (``GestureArena``), grants or defers their claims, ends their attempts,
/// and tells the window when a winner takes a sequence from the views or a held sequence may go
/// to them.
///
/// Every attempt it starts ends once: in the state a recognizer reaches, or — when its input is
/// cancelled, it is removed, its view leaves the window, or it is left with no pointer, no hold,
/// no timer and nothing to wait for — in the state the coordinator gives it.
///
/// Recognizers' code (pointer methods, delegates, `reset()`) runs inside the coordinator's
/// calls; what it asks for meanwhile (a state change, another recognizer's removal) is applied
/// in the same pass of ``settle()``, never by re-entering a pass.
@MainActor
final class GestureCoordinator {
    /// The window whose recognizers these are.
    unowned let window: Window
    /// The live and held arenas, oldest first (so in the order of their ids).
    private var arenas: [GestureArena] = []
    /// The live arena of each pointer down: found at once however many pointers are down.
    private var liveArenas: [PointerID: Int] = [:]
    /// How many arenas' pointers are up: only those may be due for a sweep.
    private var liftedArenas = 0
    /// By arena: the recognizers that start their next attempt with its pointer once their
    /// attempt under way is over (they could not join it: decided, or waiting for a claim; or
    /// they started over with it), each with the view the pointer went down on.
    private var rejoining: [Int: [(recognizer: GestureRecognizer, hit: View)]] = [:]
    /// The views' ends held back (``Window``'s state machine names them), each with the
    /// recognizers it waits for and the first of them that recognized and cancels touches.
    private var heldEnds: [(id: Int, waitingFor: [GestureRecognizer], cancelledBy: GestureRecognizer?)] = []
    /// Held ends whose recognizers have all decided, for the window to release.
    private var decidedEnds: [(id: Int, cancelledBy: GestureRecognizer?)] = []
    private var nextArenaID = 0
    /// The recognizers in an attempt here, in the order their attempts started.
    private var attempts: [GestureRecognizer] = []
    /// The order claims were made in: the first claim wins.
    private var nextClaimOrder = 0
    private var claimOrders: [ObjectIdentifier: Int] = [:]
    /// While a `began` is fed: its pointer, and the recognizer that claimed it meanwhile.
    private var beginning: (pointer: PointerID, claimedBy: GestureRecognizer?)?
    /// While an `ended` is fed and settled: its pointer, and the winners of its arenas swept
    /// meanwhile, which take the lifting sequence from the views if they are granted then.
    private var lifting: (pointer: PointerID, sweptFor: [GestureRecognizer])?
    /// Recognizers whose chain events may still be under way.
    private var sending: [GestureRecognizer] = []
    private var isSettling = false
    private var needsAnotherPass = false
    /// How many of the window's calls (input, a view or recognizer leaving) are under way: the
    /// window hears that the recognizers settled only when the outermost one is over, so that
    /// a sequence held back is released once every decision its input made is in.
    private var operations = 0

    init(window: Window) {
        self.window = window
    }

    // MARK: Pointer input

    /// Feeds a `began` on `hit` to the enabled recognizers of `hit` and its ancestors, in that
    /// order, and says how the views get the sequence: live, held back (a member delays
    /// touches), or not at all (a recognizer already under way claimed it).
    func began(_ event: PointerEvent, on hit: View) -> PointerSequenceStateMachine<View>.Start {
        operations += 1
        defer { operationEnded() }
        var members: [GestureRecognizer] = []
        var waiting: [GestureRecognizer] = []
        var view: View? = hit
        while let current = view {
            for recognizer in current.recognizers where recognizer.isEnabled {
                if canJoin(recognizer) {
                    members.append(recognizer)
                } else if recognizer.coordinator === self {
                    waiting.append(recognizer)
                }
            }
            view = current.superview
        }
        guard !members.isEmpty || !waiting.isEmpty else { return .live }
        var arena = GestureArena(id: nextArenaID, pointer: event.pointer, members: members)
        arena.location = event.location
        nextArenaID += 1
        arenas.append(arena)
        liveArenas[event.pointer] = arena.id
        if !waiting.isEmpty { rejoining[arena.id] = waiting.map { ($0, hit) } }
        for recognizer in members {
            if !recognizer.isInAttempt { startAttempt(recognizer) }
            recognizer.pointers[event.pointer] = event.location
            recognizer.hitViews.append(hit)
        }
        beginning = (event.pointer, nil)
        defer { beginning = nil }
        // A gesture under way takes a new pointer of its subtree at once.
        for recognizer in members where recognizer.storedState.hasRecognized {
            claim(arena: arena.id, for: recognizer)
        }
        feed(arena.id) { $0.pointerBegan(event) }
        if let winner = beginning?.claimedBy, let owner = winner.view { return .claimed(owner: owner) }
        return delaysViews(event.pointer) ? .held : .live
    }

    /// Feeds a `moved` to the recognizers competing for its pointer.
    func moved(_ event: PointerEvent) {
        operations += 1
        defer { operationEnded() }
        guard let id = liveArena(of: event.pointer) else { return }
        track(event)
        feed(id) { $0.pointerMoved(event) }
    }

    /// Feeds an `ended` to the recognizers competing for its pointer; then the pointer is up:
    /// its recognizers stop tracking it, and its arena is swept unless held. Returns the
    /// recognizers that tracked it, delay the views' ends, and are still undecided: the window
    /// holds the view's `ended` back until they decide (``holdEnd(_:waitingFor:)``).
    func ended(_ event: PointerEvent) -> [GestureRecognizer] {
        operations += 1
        defer { operationEnded() }
        guard let id = liveArena(of: event.pointer), let index = arenaIndex(id) else { return [] }
        let trackers = arenas[index].trackers
        track(event)
        lifting = (event.pointer, [])
        defer { lifting = nil }
        feed(id) { $0.pointerEnded(event) }
        pointerLifted(id)
        settle()
        return trackers.filter { $0.delaysTouchesEnded && isActive($0) && !$0.storedState.hasRecognized }
    }

    /// The window held a view's end back (its id, `id`) for `recognizers` to decide.
    func holdEnd(_ id: Int, waitingFor recognizers: [GestureRecognizer]) {
        heldEnds.append((id, recognizers, nil))
    }

    /// The held ends whose recognizers have all decided since the last call, each with the
    /// recognizer that won and cancels touches, if one did.
    func takeDecidedEnds() -> [(id: Int, cancelledBy: GestureRecognizer?)] {
        defer { decidedEnds = [] }
        return decidedEnds
    }

    /// `recognizer` has decided (it began, recognized, or its attempt ended): the held ends
    /// that waited for it wait no more, and one it won takes the view's end (`cancelled`).
    private func decided(_ recognizer: GestureRecognizer) {
        guard heldEnds.contains(where: { $0.waitingFor.contains { $0 === recognizer } }) else { return }
        let won = recognizer.storedState.hasRecognized && recognizer.cancelsTouchesInView
        for index in heldEnds.indices where heldEnds[index].waitingFor.contains(where: { $0 === recognizer })
        {
            heldEnds[index].waitingFor.removeAll { $0 === recognizer }
            if won, heldEnds[index].cancelledBy == nil { heldEnds[index].cancelledBy = recognizer }
        }
        for held in heldEnds where held.waitingFor.isEmpty { decidedEnds.append((held.id, held.cancelledBy)) }
        heldEnds.removeAll { $0.waitingFor.isEmpty }
    }

    /// The sequence of `pointer` was cancelled (by its input, or by the window: its view left,
    /// the window was detached): every recognizer competing for it is told, and its attempt
    /// ends — cancelled if it had begun, failed otherwise — with the reason.
    func sequenceCancelled(_ pointer: PointerID, reason: PointerCancellation) {
        operations += 1
        defer { operationEnded() }
        guard let id = liveArena(of: pointer), let arena = arenaIndex(id).map({ arenas[$0] }) else {
            return
        }
        let ending = GestureAttempt.Reason.inputCancelled(reason)
        for recognizer in arena.members where isActive(recognizer) {
            let event = PointerEvent(
                pointer: pointer, phase: .cancelled, location: recognizer.pointers[pointer] ?? .zero,
                cancellation: reason)
            recognizer.endingReason = ending
            recognizer.pointerCancelled(event)
            recognizer.endingReason = nil
            if isActive(recognizer) { end(recognizer, ending) }
            settle()
        }
        pointerLifted(id)
        settle()
    }

    /// `taker` took `pointer`'s sequence over from a view below it: the recognizers of the views
    /// strictly below the taker that compete for the pointer end at once, with
    /// ``GestureAttempt/Reason/inputCancelled(_:)`` ``PointerCancellation/takenOver`` (failed,
    /// or cancelled if they had begun): the sequence they watched is the taker's now. The
    /// taker's own recognizers, and those above it, go on.
    func sequenceTakenOver(_ pointer: PointerID, by taker: View) {
        operations += 1
        defer { operationEnded() }
        guard let id = liveArena(of: pointer), let arena = arenaIndex(id).map({ arenas[$0] }) else {
            return
        }
        for recognizer in arena.members where isActive(recognizer) {
            guard let view = recognizer.view, view !== taker, view.isDescendant(of: taker) else { continue }
            end(recognizer, .inputCancelled(.takenOver))
        }
        settle()
    }

    // MARK: Recognizers and views leaving

    /// `recognizer` was removed from its view or disabled: its attempt ends
    /// (``GestureAttempt/Reason/removed``), and it lets go of its pointers now.
    func recognizerLeft(_ recognizer: GestureRecognizer, reason: GestureAttempt.Reason) {
        operations += 1
        defer { operationEnded() }
        guard recognizer.coordinator === self else { return }
        if isActive(recognizer) { end(recognizer, reason) }
        recognizer.pointers = [:]
        settle()
    }

    /// The views `left` selects left the window (`reason` says how): the attempts of their
    /// recognizers end, with the reason.
    func viewsLeft(reason: PointerCancellation, where left: (View) -> Bool) {
        operations += 1
        defer { operationEnded() }
        for recognizer in attempts where isActive(recognizer) {
            if let view = recognizer.view, !left(view) { continue }
            end(recognizer, .inputCancelled(reason))
        }
        settle()
    }

    // MARK: Reading

    /// Whether the views must not get `pointer`'s sequence yet: a recognizer competing for it
    /// delays touches and may still recognize.
    func delaysViews(_ pointer: PointerID) -> Bool {
        guard let id = liveArena(of: pointer), let arena = arenaIndex(id).map({ arenas[$0] }) else {
            return false
        }
        return arena.members.contains { $0.delaysTouchesBegan && $0.storedState == .possible }
    }

    /// Waits for the chain events the recognizers have sent so far to end.
    func chainEventsSent() async {
        let recognizers = sending
        sending = []
        for recognizer in recognizers { await recognizer.chainEventLane.sent() }
    }

    // MARK: State changes

    /// `recognizer`'s code set its state to `newState`.
    func recognizer(_ recognizer: GestureRecognizer, requests newState: GestureRecognizer.State) {
        guard recognizer.coordinator === self else { return }
        let failure = recognizer.endingReason ?? .notRecognized
        if recognizer.pendingClaim != nil {
            switch newState {
            case .began, .recognized: makeClaim(recognizer, newState, waitsForArena: false)
            case .failed, .cancelled, .ended: end(recognizer, failure)
            case .possible, .changed: return
            }
            settle()
            return
        }
        switch (recognizer.storedState, newState) {
        case (.possible, .began), (.possible, .recognized):
            makeClaim(recognizer, newState, waitsForArena: false)
        case (.possible, .failed):
            end(recognizer, failure)
        case (.began, .changed), (.changed, .changed):
            recognizer.storedState = .changed
            send(recognizer, .changed)
            return
        case (.began, .ended), (.changed, .ended):
            end(recognizer, .completed)
        case (.began, .cancelled), (.changed, .cancelled):
            end(recognizer, failure)
        default:
            return  // not a transition of the diagram
        }
        settle()
    }

    /// Records `recognizer`'s claim of `state`, to be granted by ``settle()``.
    func makeClaim(_ recognizer: GestureRecognizer, _ state: GestureRecognizer.State, waitsForArena: Bool) {
        recognizer.pendingClaim = GestureRecognizer.PendingClaim(state: state, waitsForArena: waitsForArena)
        claimOrders[ObjectIdentifier(recognizer)] = nextClaimOrder
        nextClaimOrder += 1
    }

    // MARK: Settling

    /// Applies the rules until nothing changes: grants the claims that can be (first made,
    /// first granted), sweeps the arenas that are due, ends the attempts left with nothing to
    /// wait for, resets the recognizers whose attempt is over and whose pointers are up; then,
    /// outside the window's calls, lets the window send what it held back for the views.
    func settle() {
        if isSettling {
            needsAnotherPass = true
            return
        }
        isSettling = true
        repeat {
            needsAnotherPass = false
            if let claimant = nextGrantable() {
                grant(claimant)
                needsAnotherPass = true
                continue
            }
            if liftedArenas > 0, let index = arenas.firstIndex(where: \.isDueForSweep) {
                var arena = arenas.remove(at: index)
                liftedArenas -= 1
                removeDeclinedClaimants(from: &arena)
                if let (winner, defeated) = arena.sweep() {
                    for loser in defeated where isActive(loser) { end(loser, .defeated(by: winner.label)) }
                    if lifting?.pointer == arena.pointer { lifting?.sweptFor.append(winner) }
                }
                needsAnotherPass = true
                continue
            }
            for recognizer in attempts where isActive(recognizer) && isIdle(recognizer) {
                end(recognizer, .notRecognized)
                needsAnotherPass = true
            }
            for recognizer in attempts where recognizer.storedState.isTerminal && recognizer.pointers.isEmpty
            {
                reset(recognizer)
                rejoin(recognizer)
                needsAnotherPass = true
            }
        } while needsAnotherPass
        isSettling = false
        if operations == 0 { window.gesturesSettled() }
    }

    /// One of the window's calls is over; after the outermost, the window hears that the
    /// recognizers settled.
    private func operationEnded() {
        operations -= 1
        if operations == 0 { window.gesturesSettled() }
    }

    /// The oldest claim that can be granted now, after failing the claimants whose requirement
    /// recognized.
    private func nextGrantable() -> GestureRecognizer? {
        // Most passes have no claim waiting: nothing to sort.
        guard attempts.contains(where: { $0.pendingClaim != nil }) else { return nil }
        let claimants = attempts.filter { $0.pendingClaim != nil && isActive($0) }
            .sorted {
                claimOrders[ObjectIdentifier($0), default: 0] < claimOrders[ObjectIdentifier($1), default: 0]
            }
        for claimant in claimants {
            guard let claim = claimant.pendingClaim, isActive(claimant) else { continue }
            let waitingFor = claimant.requiredToFail.filter { $0.isInAttempt && !$0.storedState.isTerminal }
            if let recognized = waitingFor.first(where: { $0.storedState.hasRecognized }) {
                end(claimant, .requirementRecognized(recognized.label))
                continue
            }
            guard waitingFor.isEmpty else { continue }
            if claim.waitsForArena,
                arenas.contains(where: { $0.contains(claimant) && !$0.isUnopposed(claimant) })
            {
                continue
            }
            return claimant
        }
        return nil
    }

    /// Grants `recognizer` its claim: unless it is declined, it recognizes (or begins), fails
    /// the recognizers that required it to fail, defeats its competitors, takes its pointers'
    /// sequences from the views if it cancels touches, and sends its chain events.
    private func grant(_ recognizer: GestureRecognizer) {
        guard let granted = recognizer.pendingClaim else { return }
        recognizer.pendingClaim = nil
        if !granted.wasAllowed, isDeclined(recognizer) {
            end(recognizer, .declined)
            return
        }
        // Asked, the delegate (or a view) may have ended the attempt: it removed the recognizer
        // or its view, disabled it, or detached the window. One attempt, one end.
        guard isActive(recognizer) else { return }
        recognizer.storedState = granted.state
        // The winner's `began` goes out before anyone else hears of the win: a loser's or a
        // dependent's end runs delegate code that may end the winner in turn (remove its
        // view), and its `cancelled` must come after its `began`.
        if granted.state == .began {
            send(recognizer, .began)
            decided(recognizer)
        }
        // Still the winner: not ended by what the others' ends ran (a recognized one is ended
        // already, by its own transition, and only closes).
        let isWinning = { recognizer.coordinator === self && recognizer.storedState == granted.state }
        let won = arenas.filter { $0.contains(recognizer) }.map(\.id)
        for dependent in attempts where dependent !== recognizer && isActive(dependent) {
            if dependent.requiredToFail.contains(where: { $0 === recognizer }) {
                end(dependent, .requirementRecognized(recognizer.label))
            }
        }
        for id in won where isWinning() {
            claim(arena: id, for: recognizer)
        }
        // A winner is a winner however it won: one that won the sweep of the pointer lifting
        // now takes its sequence, and the view gets `cancelled` instead of `ended`.
        if let lifting, lifting.sweptFor.contains(where: { $0 === recognizer }), isWinning() {
            take(lifting.pointer, for: recognizer)
        }
        // A discrete gesture's one transition is its end: it closes once the others have
        // heard, unless their delegates ended it meanwhile.
        if granted.state == .recognized, isWinning() { close(recognizer, .completed) }
    }

    /// `recognizer`, which has won, takes arena `id`: it defeats the other members, and takes
    /// the sequence from the views if it cancels touches.
    private func claim(arena id: Int, for recognizer: GestureRecognizer) {
        guard let arena = arenaIndex(id).map({ arenas[$0] }) else { return }
        for loser in arena.defeated(byClaimOf: recognizer) where isActive(loser) {
            end(loser, .defeated(by: recognizer.label))
        }
        guard arena.isPointerDown || arena.pointer == lifting?.pointer else { return }
        take(arena.pointer, for: recognizer)
    }

    /// `recognizer`, which has won, takes `pointer`'s sequence from the views if it cancels
    /// touches.
    private func take(_ pointer: PointerID, for recognizer: GestureRecognizer) {
        guard recognizer.cancelsTouchesInView, let owner = recognizer.view else { return }
        if let beginning, beginning.pointer == pointer {
            self.beginning?.claimedBy = beginning.claimedBy ?? recognizer
        } else {
            window.claim(pointer, for: owner, by: recognizer)
        }
    }

    /// Before a sweep picks its winner: the members whose claim is declined (by their delegate,
    /// or a view under their pointers) leave the arena first, in order, until one is let
    /// begin or a member without a claim comes first; so the next member wins instead of one
    /// that would not begin.
    private func removeDeclinedClaimants(from arena: inout GestureArena) {
        for member in arena.members where isActive(member) {
            guard member.pendingClaim != nil else { return }
            if isDeclined(member) || !isActive(member) {
                // Declined, or its attempt ended while the delegate was asked.
                end(member, .declined)
                arena.remove(member)
            } else {
                member.pendingClaim?.wasAllowed = true
                return
            }
        }
    }

    /// Whether the claim is refused: the delegate says no, or a view a pointer of the attempt
    /// went down on (or one of its ancestors below the recognizer's view) keeps the gesture
    /// (``View/gestureRecognizerShouldBegin(_:)``).
    private func isDeclined(_ recognizer: GestureRecognizer) -> Bool {
        if recognizer.delegate?.gestureRecognizerShouldBegin(recognizer) == false { return true }
        for hit in recognizer.hitViews {
            var view: View? = hit
            while let current = view, current !== recognizer.view {
                if !current.gestureRecognizerShouldBegin(recognizer) { return true }
                view = current.superview
            }
        }
        return false
    }

    /// Ends `recognizer`'s attempt for `reason`: recognized or ended when it is completed,
    /// otherwise cancelled if it had begun and failed if not. It leaves its arenas, lets go of
    /// its holds and timers, sends the chain events of a recognized, ended or cancelled
    /// gesture, and the delegate hears of it.
    private func end(_ recognizer: GestureRecognizer, _ reason: GestureAttempt.Reason) {
        guard isActive(recognizer) else { return }
        let state: GestureRecognizer.State
        switch (reason, recognizer.storedState) {
        case (.completed, .began), (.completed, .changed): state = .ended
        case (.completed, _): state = .recognized
        case (_, .began), (_, .changed): state = .cancelled
        default: state = .failed
        }
        recognizer.storedState = state
        close(recognizer, reason)
    }

    /// Closes the attempt of `recognizer`, whose state is now terminal: see ``end(_:_:)``.
    private func close(_ recognizer: GestureRecognizer, _ reason: GestureAttempt.Reason) {
        let state = recognizer.storedState
        recognizer.pendingClaim = nil
        recognizer.holdsArenas = false
        recognizer.cancelTimers()
        for index in arenas.indices { arenas[index].remove(recognizer) }
        if state != .failed { send(recognizer, state) }
        decided(recognizer)
        recognizer.recordEnd(GestureAttempt(state: state, reason: reason))
        needsAnotherPass = true
    }

    // MARK: Helpers

    private func canJoin(_ recognizer: GestureRecognizer) -> Bool {
        guard recognizer.isInAttempt else { return true }
        return recognizer.coordinator === self && !recognizer.storedState.isTerminal
            && recognizer.pendingClaim == nil
    }

    private func startAttempt(_ recognizer: GestureRecognizer) {
        if recognizer.storedState != .possible || !recognizer.pointers.isEmpty {
            // Its last attempt's window went away before the attempt was over: start afresh.
            recognizer.storedState = .possible
            recognizer.pendingClaim = nil
            recognizer.pointers = [:]
            recognizer.holdsArenas = false
            recognizer.hitViews = []
            recognizer.cancelTimers()
            recognizer.reset()
        }
        recognizer.coordinator = self
        recognizer.timers = window.currentEventSystem.timers
        attempts.append(recognizer)
    }

    private func reset(_ recognizer: GestureRecognizer) {
        attempts.removeAll { $0 === recognizer }
        claimOrders[ObjectIdentifier(recognizer)] = nil
        recognizer.coordinator = nil
        recognizer.cancelTimers()
        recognizer.timers = nil
        recognizer.storedState = .possible
        recognizer.hitViews = []
        recognizer.reset()
    }

    /// Whether `recognizer` is in an attempt here that has not ended.
    private func isActive(_ recognizer: GestureRecognizer) -> Bool {
        recognizer.coordinator === self && !recognizer.storedState.isTerminal
    }

    /// Whether `recognizer` is left with nothing that could end its attempt: no pointer down,
    /// no hold, no timer, no claim waiting.
    private func isIdle(_ recognizer: GestureRecognizer) -> Bool {
        recognizer.pointers.isEmpty && !recognizer.holdsArenas && !recognizer.hasPendingTimers
            && recognizer.pendingClaim == nil
    }

    private func liveArena(of pointer: PointerID) -> Int? {
        liveArenas[pointer]
    }

    /// The index of arena `id` in ``arenas`` (ordered by id), by binary search.
    private func arenaIndex(_ id: Int) -> Int? {
        var low = 0
        var high = arenas.count
        while low < high {
            let middle = (low + high) / 2
            if arenas[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < arenas.count && arenas[low].id == id ? low : nil
    }

    private func track(_ event: PointerEvent) {
        guard let id = liveArena(of: event.pointer), let index = arenaIndex(id) else { return }
        arenas[index].location = event.location
        for recognizer in arenas[index].trackers where recognizer.pointers[event.pointer] != nil {
            recognizer.pointers[event.pointer] = event.location
        }
    }

    /// Calls `deliver` on each member of arena `id` still competing, in order, settling after
    /// each: a member defeated by an earlier one's claim is not called.
    private func feed(_ id: Int, _ deliver: (GestureRecognizer) -> Void) {
        guard let arena = arenaIndex(id).map({ arenas[$0] }) else { return }
        for recognizer in arena.members {
            guard isActive(recognizer), let index = arenaIndex(id), arenas[index].contains(recognizer) else {
                continue
            }
            deliver(recognizer)
            if recognizer.startsOver {
                // Its attempt ended with this `began`, which starts its next one.
                recognizer.startsOver = false
                recognizer.pointers[arena.pointer] = nil
                if let hit = recognizer.hitViews.last { rejoining[id, default: []].append((recognizer, hit)) }
            }
            settle()
        }
    }

    /// Starts `recognizer`'s next attempt with the oldest pointer still down that it is to
    /// rejoin (see ``rejoining``): it joins that pointer's arena and gets its `began`.
    private func rejoin(_ recognizer: GestureRecognizer) {
        for id in rejoining.keys.sorted() {
            guard let entry = rejoining[id]?.first(where: { $0.recognizer === recognizer }) else { continue }
            rejoining[id]?.removeAll { $0.recognizer === recognizer }
            // Only a pointer still down and not lifting now, whose arena nobody has won against it.
            guard recognizer.isEnabled, recognizer.view?.window === window, let index = arenaIndex(id),
                arenas[index].isPointerDown, arenas[index].pointer != lifting?.pointer,
                !arenas[index].members.contains(where: {
                    $0.storedState.hasRecognized && !recognizer.recognizesSimultaneously(with: $0)
                })
            else { continue }
            startAttempt(recognizer)
            arenas[index].rejoin(recognizer)
            let pointer = arenas[index].pointer
            let location = arenas[index].location
            recognizer.pointers[pointer] = location
            recognizer.hitViews.append(entry.hit)
            recognizer.pointerBegan(PointerEvent(pointer: pointer, phase: .began, location: location))
            return
        }
    }

    /// The pointer of arena `id` is up: its recognizers stop tracking it; the arena stays
    /// until it is swept.
    private func pointerLifted(_ id: Int) {
        guard let index = arenaIndex(id), arenas[index].isPointerDown else { return }
        arenas[index].isPointerDown = false
        liftedArenas += 1
        rejoining[id] = nil
        let pointer = arenas[index].pointer
        if liveArenas[pointer] == id { liveArenas[pointer] = nil }
        for recognizer in arenas[index].trackers { recognizer.pointers[pointer] = nil }
    }

    private func send(_ recognizer: GestureRecognizer, _ state: GestureRecognizer.State) {
        recognizer.sendChainEvents(for: state)
        if !recognizer.chainEventLane.isIdle, !sending.contains(where: { $0 === recognizer }) {
            sending.append(recognizer)
        }
    }
}
