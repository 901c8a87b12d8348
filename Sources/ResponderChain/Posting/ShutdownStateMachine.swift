/// The post office's shutdown: the tasks waiting for it to begin, the drain and its waiters, the
/// shutdown's callers (posts whose own delivery called for it), the counts and the report.
///
/// One of the three machines ``PostOfficeState`` composes (with ``AdmissionStateMachine`` and
/// ``LanesStateMachine``). It does not hold the posts: whoever drives it tells it how many are
/// outstanding (``Outstanding``), and it decides from that whether the drain is complete and
/// whether the office closes.
///
/// ```
///  running ──shutDown()──▶ draining ──makeReport()──▶ reported ──settle(): nothing outstanding──▶ closed
///                            │ settle(): drained → the drain's waiters resume
/// ```
///
/// A task that waits for the shutdown to begin, or for the drain, takes an identity from
/// ``waitForShutdown()`` or ``waitForDrain(_:)``, then hands its continuation to the matching
/// `suspend…` transition, which keeps it or answers at once. A pure value: it never resumes a
/// continuation, it hands them back.
struct ShutdownStateMachine {
    /// Tasks waiting for the shutdown to begin: `true` when it has, `false` when cancelled.
    typealias ShutdownLine = WaitingLine<Void, CheckedContinuation<Bool, Never>>
    typealias DrainLine = WaitingLine<Void, CheckedContinuation<Void, Never>>

    /// What the drain waits for, as the office counts it: the posts outstanding, and among them
    /// those on the callers' lanes (each one's post in flight and those queued behind it).
    struct Outstanding {
        let total: Int
        let onCallerLanes: Int
    }

    /// Who called for the shutdown from inside a post's own delivery.
    enum Caller {
        /// The post in flight on this lane: the drain does not wait for it, and the posts
        /// queued behind it cannot be delivered before it ends.
        case lane(LaneKey)
        /// A post that released its lane, by ticket: the drain does not wait for it either.
        case detached(ObjectIdentifier)
    }

    /// How far the shutdown has come.
    fileprivate enum Progress {
        /// Finishing the outstanding posts; the report's counts so far.
        case draining(counts: EventSystem.ShutdownReport)
        /// The report is made; what is still outstanding (the posts whose own deliveries called
        /// for the shutdown) ends uncounted.
        case reported(EventSystem.ShutdownReport)
    }

    /// Refusing new posts, finishing the outstanding ones.
    fileprivate struct ShuttingDown {
        var progress: Progress
        /// The lanes whose post in flight called for the shutdown from its own delivery.
        var callerLanes: Set<LaneKey> = []
        /// The posts that released their lanes and called for the shutdown from their own
        /// delivery, by ticket.
        var detachedCallers: Set<ObjectIdentifier> = []
        /// Tasks waiting for the drain to complete.
        var drainLine = DrainLine()
        /// The tasks that took an identity to wait for the shutdown while the office was open
        /// and had not suspended when it began: nobody is suspended here, each arrival is
        /// answered at once.
        var lateWaiters: ShutdownLine
    }

    private enum State {
        /// Not shutting down; the tasks waiting for the shutdown to begin.
        case running(ShutdownLine)
        case shuttingDown(ShuttingDown)
        /// Nothing outstanding, the report made.
        case closed(report: EventSystem.ShutdownReport, lateWaiters: ShutdownLine)
        /// Held only inside a transition, while the payload of the real case is changed in place.
        case modifying
    }

    /// Where the shutdown is (for tests and diagnostics).
    enum Phase: Equatable {
        /// Accepting posts.
        case open
        /// Refusing new posts, finishing the outstanding ones.
        case draining
        /// Refusing new posts; the report is made, the callers' own posts still run.
        case reported
        /// Refusing new posts, nothing outstanding.
        case closed
    }

    /// What ``waitForShutdown()`` decided.
    enum ShutdownWait: Equatable {
        /// The shutdown has begun.
        case began
        /// Suspend with this identity (``suspendShutdownWaiter(_:continuation:)``).
        case mustWait(WaiterID)
    }

    /// What ``waitForDrain(_:)`` decided.
    enum DrainWait: Equatable {
        /// Everything the drain waits for has ended.
        case drained
        /// Suspend with this identity (``suspendDrainWaiter(_:continuation:_:)``).
        case mustWait(WaiterID)
    }

    /// What ``shutDown(refused:caller:)`` did.
    enum ShutDownAction {
        /// The shutdown begins now: resume these tasks waiting for it with `true`.
        case began([CheckedContinuation<Bool, Never>])
        /// It had begun already (the caller, if any, was noted).
        case alreadyShuttingDown
        /// The office has closed: nothing changed.
        case closed
    }

    /// What ``settle(_:)`` freed.
    struct SettleAction {
        /// The drain is complete: resume its waiters.
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
        /// The office has just closed (the report is made and nothing is outstanding).
        var closed = false
    }

    private var state = State.running(ShutdownLine())

    // MARK: Reading

    var phase: Phase {
        switch state {
        case .running: .open
        case .shuttingDown(let shuttingDown):
            if case .draining = shuttingDown.progress { .draining } else { .reported }
        case .closed: .closed
        case .modifying: preconditionFailure("read during a transition")
        }
    }

    /// Whether the shutdown has not begun. (A check of the case alone, which copies nothing:
    /// the office asks at every post's end.)
    var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// Whether the office has closed.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// The lanes whose post in flight called for the shutdown (empty unless shutting down).
    var callerLanes: Set<LaneKey> {
        guard case .shuttingDown(let shuttingDown) = state else { return [] }
        return shuttingDown.callerLanes
    }

    /// The posts that released their lanes and called for the shutdown (empty unless shutting
    /// down).
    var detachedCallers: Set<ObjectIdentifier> {
        guard case .shuttingDown(let shuttingDown) = state else { return [] }
        return shuttingDown.detachedCallers
    }

    /// Whether everything the drain waits for has ended: the shutdown has begun, and the only
    /// posts outstanding are those of lanes whose post in flight called for the shutdown, and
    /// the posts that released their lanes and called for it.
    func isDrained(_ outstanding: Outstanding) -> Bool {
        switch state {
        case .running: false
        case .shuttingDown(let shuttingDown): shuttingDown.isDrained(outstanding)
        case .closed: true
        case .modifying: preconditionFailure("read during a transition")
        }
    }

    /// The counts so far, before the report is made (for a call made from inside the shutdown's
    /// own endings), or the report.
    var countsSoFar: EventSystem.ShutdownReport {
        switch state {
        case .running, .modifying: EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: 0)
        case .shuttingDown(let shuttingDown):
            switch shuttingDown.progress {
            case .draining(let counts): counts
            case .reported(let report): report
            }
        case .closed(let report, _): report
        }
    }

    // MARK: Starting

    /// Starts the shutdown, with `refused` posters refused as it began; calling it again changes
    /// nothing but for `caller`, noted while draining (the drain then does not wait for its post).
    mutating func shutDown(refused: Int, caller: Caller?) -> ShutDownAction {
        var shuttingDown: ShuttingDown
        let action: ShutDownAction
        switch state {
        case .running(var line):
            state = .modifying
            let began = line.removeAll().map(\.continuation)
            shuttingDown = ShuttingDown(
                progress: .draining(
                    counts: EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: refused)),
                lateWaiters: line)
            action = .began(began)
        case .shuttingDown(let current):
            state = .modifying
            shuttingDown = current
            action = .alreadyShuttingDown
        case .closed:
            return .closed
        case .modifying:
            preconditionFailure("shutdown during a transition")
        }
        if let caller, case .draining = shuttingDown.progress {
            switch caller {
            case .lane(let key): shuttingDown.callerLanes.insert(key)
            case .detached(let ticket): shuttingDown.detachedCallers.insert(ticket)
            }
        }
        state = .shuttingDown(shuttingDown)
        return action
    }

    // MARK: Counting

    /// Counts a post refused, until the report is made.
    mutating func refuse() {
        guard case .shuttingDown(var shuttingDown) = state, case .draining(var counts) = shuttingDown.progress
        else { return }
        state = .modifying
        counts.refused += 1
        shuttingDown.progress = .draining(counts: counts)
        state = .shuttingDown(shuttingDown)
    }

    /// One outstanding post's ticket holds its outcome: it is counted by that outcome until the
    /// report is made. `lane` is the lane whose task delivered it, `wasDetached` whether it had
    /// released that lane; `nil` for a post that ended while queued.
    ///
    /// Taking the settlement (not a bare outcome) is what keeps the order: a post can stop
    /// counting only after its ticket was settled, so when the drain completes, every ticket it
    /// waited for already has the outcome the report counted.
    mutating func postEnded(
        _ settlement: TicketState.Settlement, delivery: (lane: LaneKey, wasDetached: Bool)?
    ) {
        guard case .shuttingDown(var shuttingDown) = state else { return }
        state = .modifying
        if let delivery {
            if delivery.wasDetached {
                shuttingDown.detachedCallers.remove(ObjectIdentifier(settlement.ticket))
            } else {
                // A caller's post has ended: its lane is drained like any other from now on.
                shuttingDown.callerLanes.remove(delivery.lane)
            }
        }
        if case .draining(var counts) = shuttingDown.progress {
            if settlement.outcome.wasEndedByShutdown {
                counts.endedEarly += 1
            } else if settlement.outcome.wasKeptForNextStart {
                counts.kept += 1
            } else {
                counts.finished += 1
            }
            shuttingDown.progress = .draining(counts: counts)
        }
        state = .shuttingDown(shuttingDown)
    }

    /// `count` posts that were stored in a shared store and that no consumer here had claimed
    /// were kept there for the next consumer: the report counts them kept.
    mutating func keptUnclaimed(_ count: Int) {
        guard count > 0, case .shuttingDown(var shuttingDown) = state,
            case .draining(var counts) = shuttingDown.progress
        else { return }
        state = .modifying
        counts.kept += count
        shuttingDown.progress = .draining(counts: counts)
        state = .shuttingDown(shuttingDown)
    }

    /// `ticket`'s post released `lane`: a caller's post stays uncounted by the drain, and the
    /// posts behind it may run now.
    mutating func laneReleased(_ lane: LaneKey, by ticket: TicketState) {
        guard case .shuttingDown(var shuttingDown) = state else { return }
        state = .modifying
        if shuttingDown.callerLanes.remove(lane) != nil {
            shuttingDown.detachedCallers.insert(ObjectIdentifier(ticket))
        }
        state = .shuttingDown(shuttingDown)
    }

    /// After a change while shutting down: once drained, the drain's waiters (resume them); once
    /// the report is made and nothing is outstanding, the office closes.
    mutating func settle(_ outstanding: Outstanding) -> SettleAction {
        guard case .shuttingDown(var shuttingDown) = state else { return SettleAction() }
        state = .modifying
        var action = SettleAction()
        if shuttingDown.isDrained(outstanding) {
            action.drainWaiters = shuttingDown.drainLine.removeAll().map(\.continuation)
        }
        if case .reported(let report) = shuttingDown.progress, outstanding.total == 0 {
            state = .closed(report: report, lateWaiters: shuttingDown.lateWaiters)
            action.closed = true
        } else {
            state = .shuttingDown(shuttingDown)
        }
        return action
    }

    /// Makes the report, the first time: the counts so far, with the posts still outstanding (the
    /// callers' own) as ``EventSystem/ShutdownReport/inProgress``. Later calls return it
    /// unchanged. Settle after a report made now (`isNew`). Only once the shutdown has begun.
    mutating func makeReport(outstanding: Int) -> (report: EventSystem.ShutdownReport, isNew: Bool) {
        switch state {
        case .running, .modifying:
            preconditionFailure("the report is made only once the shutdown has begun")
        case .shuttingDown(var shuttingDown):
            switch shuttingDown.progress {
            case .reported(let report):
                return (report, false)
            case .draining(var counts):
                state = .modifying
                counts.inProgress = outstanding
                shuttingDown.progress = .reported(counts)
                state = .shuttingDown(shuttingDown)
                return (counts, true)
            }
        case .closed(let report, _):
            return (report, false)
        }
    }

    // MARK: Waiting for the shutdown

    /// Whether the shutdown has begun; if not, the identity to wait for it under.
    mutating func waitForShutdown() -> ShutdownWait {
        guard case .running(var line) = state else { return .began }
        state = .modifying
        let id = line.makeID()
        state = .running(line)
        return .mustWait(id)
    }

    /// Suspends the task `id` (made by ``waitForShutdown()``) until the shutdown begins; the value
    /// to resume it with at once instead: `true` if the shutdown has begun, `false` if the task
    /// was cancelled meanwhile.
    mutating func suspendShutdownWaiter(_ id: WaiterID, continuation: CheckedContinuation<Bool, Never>)
        -> Bool?
    {
        switch state {
        case .running(var line):
            state = .modifying
            defer { state = .running(line) }
            if line.isCancelledBeforeSuspending(id) {
                line.withdraw(id)
                return false
            }
            switch line.suspend(id, element: (), continuation: continuation) {
            case .suspended: return nil
            case .cancelledBeforeSuspending: return false
            }
        case .shuttingDown(var shuttingDown):
            state = .modifying
            let began = Self.answerLate(id, in: &shuttingDown.lateWaiters)
            state = .shuttingDown(shuttingDown)
            return began
        case .closed(let report, var late):
            state = .modifying
            let began = Self.answerLate(id, in: &late)
            state = .closed(report: report, lateWaiters: late)
            return began
        case .modifying:
            preconditionFailure("suspend during a transition")
        }
    }

    /// Cancels the task `id` waiting for the shutdown: the continuation to resume with `false`,
    /// if it was suspended; otherwise it is remembered as cancelled for when it arrives.
    mutating func cancelShutdownWaiter(_ id: WaiterID) -> CheckedContinuation<Bool, Never>? {
        let action: ShutdownLine.CancelAction
        switch state {
        case .running(var line):
            state = .modifying
            action = line.cancel(id)
            state = .running(line)
        case .shuttingDown(var shuttingDown):
            state = .modifying
            action = shuttingDown.lateWaiters.cancel(id)
            state = .shuttingDown(shuttingDown)
        case .closed(let report, var late):
            state = .modifying
            action = late.cancel(id)
            state = .closed(report: report, lateWaiters: late)
        case .modifying:
            preconditionFailure("cancel during a transition")
        }
        if case .resume(let waiter) = action { return waiter.continuation }
        return nil
    }

    // MARK: Waiting for the drain

    /// Whether the drain is complete; if not, the identity to wait for it under. Only once the
    /// shutdown has begun.
    mutating func waitForDrain(_ outstanding: Outstanding) -> DrainWait {
        switch state {
        case .running, .modifying:
            preconditionFailure("the drain is awaited only once the shutdown has begun")
        case .shuttingDown(var shuttingDown):
            if shuttingDown.isDrained(outstanding) { return .drained }
            state = .modifying
            let id = shuttingDown.drainLine.makeID()
            state = .shuttingDown(shuttingDown)
            return .mustWait(id)
        case .closed:
            return .drained
        }
    }

    /// Suspends the task `id` (made by ``waitForDrain(_:)``) until the drain completes; `true` to
    /// resume it at once instead (it completed meanwhile). The wait ignores cancellation.
    mutating func suspendDrainWaiter(
        _ id: WaiterID, continuation: CheckedContinuation<Void, Never>, _ outstanding: Outstanding
    ) -> Bool {
        switch state {
        case .running, .modifying:
            preconditionFailure("the drain is awaited only once the shutdown has begun")
        case .shuttingDown(var shuttingDown):
            state = .modifying
            defer { state = .shuttingDown(shuttingDown) }
            if shuttingDown.isDrained(outstanding) {
                shuttingDown.drainLine.withdraw(id)
                return true
            }
            switch shuttingDown.drainLine.suspend(id, element: (), continuation: continuation) {
            case .suspended: return false
            case .cancelledBeforeSuspending: return true
            }
        case .closed:
            return true
        }
    }

    // MARK: Helpers

    /// Answers the late task `id` waiting for the shutdown: `false` if it was cancelled first,
    /// `true` (the shutdown has begun) otherwise.
    private static func answerLate(_ id: WaiterID, in late: inout ShutdownLine) -> Bool {
        let cancelled = late.isCancelledBeforeSuspending(id)
        late.withdraw(id)
        return !cancelled
    }
}

extension ShutdownStateMachine.ShuttingDown {
    func isDrained(_ outstanding: ShutdownStateMachine.Outstanding) -> Bool {
        outstanding.total == outstanding.onCallerLanes + detachedCallers.count
    }
}

extension Outcome {
    /// Whether a system's shutdown ended this event.
    var wasEndedByShutdown: Bool {
        if case .cancelled(let stop) = self { return stop.reason == .shutdown }
        return false
    }

    /// Whether a system's shutdown kept this event in its store for the next start.
    var wasKeptForNextStart: Bool {
        if case .cancelled(let stop) = self { return stop.reason == .keptForNextStart }
        return false
    }
}
