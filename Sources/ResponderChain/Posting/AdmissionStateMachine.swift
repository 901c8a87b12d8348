/// Admission to the post office: the count of outstanding posts against the
/// ``EventSystem/PostingLimit``, and the line of posters waiting for room under it.
///
/// One of the three machines ``PostOfficeState`` composes (with ``LanesStateMachine`` and
/// ``ShutdownStateMachine``). It decides whether a post may come in, and when room is freed,
/// which waiting posters come in next; where an admitted post goes is the lanes' business.
///
/// ```
///  accepting ──post()──▶ .accept (room, or over the limit) ── a post ends: postEnded()
///      │                 .rejectLimitReached (full, the policy rejects)
///      │                 .suspend(id) (full, the policy suspends) ──suspendPoster()──▶ room line
///      │                                                     ◀── admitWaitingPoster() ──┘
///      └─shutDown(): the room line is refused ──▶ refusing ──post()──▶ .refuse
/// ```
///
/// A poster that must wait takes an identity from ``post(overLimit:)``, then hands its
/// continuation to ``suspendPoster(_:_:continuation:)``, which keeps it or answers at once (room
/// appeared, the shutdown began, or it was cancelled meanwhile). A pure value: it never resumes
/// a continuation, it hands them back.
struct AdmissionStateMachine {
    /// A poster waiting for room: the post it wants to queue, on its lane, and the poster's
    /// isolation, where the lane's task runs if this post starts it.
    struct WaitingPost: Sendable {
        let lane: LaneKey
        let post: PendingPost
        let isolation: (any Actor)?
    }

    /// How a waiting poster's wait ended.
    enum Admission: Sendable {
        case accepted
        case cancelled
        case shuttingDown
    }

    typealias RoomLine = WaitingLine<WaitingPost, CheckedContinuation<Admission, Never>>

    private enum State {
        /// Accepting posts; the posters waiting for room, first come first served.
        case accepting(RoomLine)
        /// Refusing every post: the shutdown has begun. `late` holds the posters that took an
        /// identity while accepting and had not suspended when it began; nobody is suspended in
        /// it: each arrival is answered at once (cancelled, if it was cancelled first; refused
        /// otherwise).
        case refusing(late: RoomLine)
        /// Held only inside a transition, while the payload of the real case is changed in place.
        case modifying
    }

    /// What ``post(overLimit:)`` decided.
    enum PostAction: Equatable {
        /// Admitted (and counted as outstanding): queue the post.
        case accept
        /// Full, and the policy rejects: end the post rejected.
        case rejectLimitReached
        /// Full, and the policy suspends: suspend with this identity
        /// (``suspendPoster(_:_:continuation:)``).
        case suspend(WaiterID)
        /// The shutdown has begun: end the post refused.
        case refuse
    }

    /// What ``suspendPoster(_:_:continuation:)`` did.
    enum SuspendPosterAction: Equatable {
        /// The poster waits in the room line.
        case suspended
        /// Room appeared meanwhile: the post is admitted (and counted); queue it, then resume the
        /// poster as accepted.
        case admit
        /// The poster was cancelled meanwhile: resume it as cancelled.
        case resumeCancelled
        /// The shutdown began meanwhile: resume it as refused.
        case refuse
    }

    /// What ``postEnded()`` freed.
    enum PostEndedAction {
        /// Nobody comes in.
        case none
        /// There is room for a batch and posters wait: admit them with ``admitWaitingPoster()``.
        case admitWaitingPosters
    }

    let limit: EventSystem.PostingLimit
    private var state = State.accepting(RoomLine())
    /// The posts admitted whose tickets do not hold their outcomes yet.
    private(set) var outstanding = 0
    /// The most posts there ever were outstanding at once.
    private(set) var peak = 0

    init(limit: EventSystem.PostingLimit) {
        self.limit = limit
    }

    /// The posters waiting for room.
    var suspendedCount: Int {
        guard case .accepting(let line) = state else { return 0 }
        return line.count
    }

    /// Admits a post if there is room (or `overLimit`: a post made by a running delivery's
    /// handlers), refuses it once the shutdown has begun.
    mutating func post(overLimit: Bool) -> PostAction {
        guard case .accepting = state else { return .refuse }
        // No `defer` to put the line back: it would copy it rather than move it.
        var line = takeAccepting()
        let action: PostAction
        if overLimit || hasRoom(line) {
            count()
            action = .accept
        } else {
            switch limit.policy {
            case .reject: action = .rejectLimitReached
            case .suspend: action = .suspend(line.makeID())
            }
        }
        state = .accepting(consume line)
        return action
    }

    /// Suspends the poster `id` (made by ``post(overLimit:)``) with `continuation`, unless it was
    /// cancelled meanwhile, room appeared, or the shutdown began.
    mutating func suspendPoster(
        _ id: WaiterID,
        _ waiting: WaitingPost,
        continuation: CheckedContinuation<Admission, Never>
    ) -> SuspendPosterAction {
        switch state {
        case .accepting:
            var line = takeAccepting()
            let action: SuspendPosterAction
            if line.isCancelledBeforeSuspending(id) {
                line.withdraw(id)
                action = .resumeCancelled
            } else if hasRoom(line) {
                line.withdraw(id)
                count()
                action = .admit
            } else {
                switch line.suspend(id, element: waiting, continuation: continuation) {
                case .suspended: action = .suspended
                case .cancelledBeforeSuspending: action = .resumeCancelled
                }
            }
            state = .accepting(consume line)
            return action
        case .refusing(var late):
            state = .modifying
            let cancelled = late.isCancelledBeforeSuspending(id)
            late.withdraw(id)
            state = .refusing(late: late)
            return cancelled ? .resumeCancelled : .refuse
        case .modifying:
            preconditionFailure("suspend during a transition")
        }
    }

    /// Cancels the poster `id`: the continuation to resume as cancelled, if it was suspended;
    /// otherwise it is remembered as cancelled for when it arrives.
    mutating func cancelPoster(_ id: WaiterID) -> CheckedContinuation<Admission, Never>? {
        let action: RoomLine.CancelAction
        switch state {
        case .accepting:
            var line = takeAccepting()
            action = line.cancel(id)
            state = .accepting(consume line)
        case .refusing(var late):
            state = .modifying
            action = late.cancel(id)
            state = .refusing(late: late)
        case .modifying:
            preconditionFailure("cancel during a transition")
        }
        if case .resume(let waiter) = action { return waiter.continuation }
        return nil
    }

    /// One outstanding post's ticket holds its outcome: its room is freed. Waiting posters come
    /// in, first come first served, only once there is room for a batch
    /// (``EventSystem/PostingLimit/resumeBatch``): a poster resumed for a single slot would
    /// suspend again at its next post, paying a wake-up per event.
    mutating func postEnded() -> PostEndedAction {
        outstanding -= 1
        guard case .accepting = state, outstanding <= limit.maxOutstanding - limit.resumeBatch else {
            return .none
        }
        let line = takeAccepting()
        let waiting = !line.isEmpty
        state = .accepting(consume line)
        return waiting ? .admitWaitingPosters : .none
    }

    /// Admits the first waiting poster, if there is room (its post is counted): queue its post,
    /// then resume it as accepted.
    mutating func admitWaitingPoster() -> RoomLine.Waiter? {
        guard case .accepting = state, outstanding < limit.maxOutstanding else { return nil }
        var line = takeAccepting()
        let waiter = line.popFirst()
        state = .accepting(consume line)
        if waiter != nil { count() }
        return waiter
    }

    /// The shutdown has begun: every later post is refused, and so are the posters waiting for
    /// room, whose continuations this returns (resume them as refused).
    mutating func shutDown() -> [CheckedContinuation<Admission, Never>] {
        guard case .accepting = state else { return [] }
        var line = takeAccepting()
        let refused = line.removeAll().map(\.continuation)
        state = .refusing(late: line)
        return refused
    }

    // MARK: Helpers

    private func hasRoom(_ line: RoomLine) -> Bool {
        outstanding < limit.maxOutstanding && line.isEmpty
    }

    /// Counts one more post outstanding.
    private mutating func count() {
        outstanding += 1
        peak = max(peak, outstanding)
    }

    /// Moves the room line out of ``state``, leaving ``State/modifying`` there until the caller
    /// puts it back. A move, not a copy: binding the payload with `case .accepting(var line)`
    /// would retain its buffers and release them again, at each post.
    private mutating func takeAccepting() -> RoomLine {
        var taken = State.modifying
        swap(&taken, &state)
        guard case .accepting(let line) = consume taken else {
            preconditionFailure("not accepting")
        }
        return line
    }
}
