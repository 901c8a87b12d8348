/// How a send ended. Every send ends in exactly one outcome.
///
/// ```swift
/// switch await lineItem.send(ItemAdded(sku: "A-1")) {
/// case .handled(let handled):        print(handled.handlers, handled.hops)
/// case .unhandled(let unhandled):    print("no one handled it; root was", unhandled.root)
/// case .interrupted(let broken):     print("chain broke after", broken.lastReached)
/// case .cycleDetected(let cycle):    print("cycle at", cycle.repeated)
/// case .cancelled(let stop):         print("cancelled at hop", stop.hop)
/// case .timedOut(let stop):          print("deadline passed at", stop.responder)
/// case .failed(let failure):         print(failure.responder, "threw", failure.error)
/// case .rejected(let rejection):     print("not accepted:", rejection.reason)
/// }
/// ```
public enum Outcome: Sendable, CustomStringConvertible {
    /// At least one responder handled the event: it stopped at one, or it was handled and
    /// continued up to a root.
    case handled(Handled)
    /// The event reached a root and nobody handled it.
    case unhandled(Unhandled)
    /// The chain ended at a responder that is not a root (a detached view, a closed window, a
    /// session whose parent is gone).
    case interrupted(Interruption)
    /// The chain led back to a responder the event had already visited; no handler ran twice.
    case cycleDetected(Cycle)
    /// The sending task, or the ticket of a posted event, was cancelled.
    case cancelled(Stop)
    /// The send's deadline passed.
    case timedOut(Stop)
    /// A handler threw.
    case failed(Failure)
    /// The event was not accepted: a posted event met its system's ``EventSystem/PostingLimit`` (with the
    /// ``EventSystem/PostingLimit/Policy/reject`` policy, or its poster was cancelled while it waited for
    /// room) or a shutdown; a send nested too deep met the ``EventSystem/forwardingLimit``; or
    /// the event would have waited for itself (``Rejection/Reason/wouldDeadlock``). The
    /// responder that refused it never ran a handler for it.
    case rejected(Rejection)

    /// The kind of outcome, without its details (handy for counting and comparing).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case handled, unhandled, interrupted, cycleDetected, cancelled, timedOut, failed, rejected
    }

    /// The kind of this outcome.
    public var kind: Kind {
        switch self {
        case .handled: return .handled
        case .unhandled: return .unhandled
        case .interrupted: return .interrupted
        case .cycleDetected: return .cycleDetected
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .failed: return .failed
        case .rejected: return .rejected
        }
    }

    /// What every outcome records about the event's path.
    public var path: Path {
        switch self {
        case .handled(let details): return details.path
        case .unhandled(let details): return details.path
        case .interrupted(let details): return details.path
        case .cycleDetected(let details): return details.path
        case .cancelled(let details), .timedOut(let details): return details.path
        case .failed(let details): return details.path
        case .rejected(let details): return details.path
        }
    }

    /// Whether at least one responder handled the event and the send completed.
    public var isHandled: Bool { kind == .handled }

    /// Whether this outcome of an awaited send is given to the dead-letter sink: the event was not
    /// handled and nobody chose that. Unhandled, interrupted and rejected events, and events that
    /// a system's shutdown ended; not events that their sender cancelled, that timed out, that
    /// failed (the failure is the sender's to handle) or that ended in a cycle: the sender holds
    /// the outcome.
    ///
    /// A posted event has no sender waiting for it, so every post that ends other than handled
    /// goes there, whatever this property says, except a post that its own ticket's
    /// ``Ticket/cancel()`` ended: its holder asked for that, and has the outcome on the ticket
    /// (and the outcome streams have it). A post whose ticket was abandoned
    /// (``Ticket/abandon()``) goes there too: nobody is left to see it.
    public var goesToDeadLetters: Bool {
        switch self {
        case .unhandled, .interrupted, .rejected: return true
        case .cancelled(let stop): return stop.reason == .shutdown
        case .handled, .cycleDetected, .timedOut, .failed: return false
        }
    }

    /// The number of hops that ran.
    public var hops: Int { path.hops }

    /// The responders that handled the event, in the order they did.
    public var handlers: [ResponderID] { path.handlers }

    /// The information added by the hops that ran.
    public var info: EventInfo { path.info }

    /// The correlation identifier of the send.
    public var eventID: EventID { path.eventID }

    /// A one-line summary, e.g. `handled by Order after 2 hops`.
    public var description: String {
        let hops = "\(path.hops) hop\(path.hops == 1 ? "" : "s")"
        switch self {
        case .handled(let details):
            if details.wasIntercepted {
                return "intercepted by \(details.stoppedAt) during capture after \(hops)"
            }
            let names = details.handlers.map(\.label).joined(separator: ", ")
            return "handled by \(names) after \(hops)"
        case .unhandled(let details):
            return "unhandled at root \(details.root) after \(hops)"
        case .interrupted(let details):
            guard let cause = details.cause else {
                return "interrupted after \(details.lastReached) (not a root, no next) after \(hops)"
            }
            return "interrupted after \(details.lastReached) (\(cause)) after \(hops)"
        case .cycleDetected(let details):
            let through = details.isForwardingLoop ? " through forwarding" : ""
            return "cycle detected: \(details.repeated) reached again\(through) after \(hops)"
        case .cancelled(let stop):
            return
                "cancelled \(stop.whileHandling ? "during" : "before") \(stop.phase.hopName) \(stop.hop) at \(stop.responder)\(stop.lastReachedNote) (\(stop.reason))"
        case .timedOut(let stop):
            return
                "timed out \(stop.whileHandling ? "during" : "before") \(stop.phase.hopName) \(stop.hop) at \(stop.responder)\(stop.lastReachedNote)"
        case .failed(let failure):
            return
                "failed at \(failure.phase.hopName) \(failure.hop), \(failure.responder) threw \(failure.error)"
        case .rejected(let rejection):
            guard path.hops > 0 else {
                return "rejected before hop 1 at \(rejection.sender): \(rejection.reason)"
            }
            return "rejected at \(rejection.sender) after \(hops): \(rejection.reason)"
        }
    }
}

extension Outcome.Stop {
    /// `, after Sender` for a stop before a hop that follows one that ran.
    fileprivate var lastReachedNote: String {
        guard !whileHandling, let lastReached else { return "" }
        return ", after \(lastReached)"
    }
}

extension Outcome {
    /// What a send's outcome records about the way the event went, whatever the outcome.
    public struct Path: Sendable {
        /// The correlation identifier of the send.
        public let eventID: EventID
        /// The number of hops that ran (a hop is one visit to one responder), capture hops
        /// included.
        public let hops: Int
        /// The number of the ``hops`` that belonged to the capture pass (see ``EventContext/Phase``):
        /// they ran first, so hops `1...captureHops` were capture hops.
        public let captureHops: Int
        /// The responders that handled the event, in order: those whose capture handlers did
        /// first (topmost first), then those that handled it on the way up. A responder that
        /// handled it in both phases is listed twice.
        public var handlers: [ResponderID] { handlerList.all }
        /// The responders whose capture handlers handled the event, topmost first: the first
        /// entries of ``handlers``.
        public var captureHandlers: [ResponderID] { Array(handlers.prefix(handlerList.captureCount)) }
        /// The information added by the hops that ran.
        public let info: EventInfo
        /// How many times the event was tried: 1, or more when a ``EventSystem/RetryPolicy``
        /// tried it again. The rest of the path is the last attempt's.
        public var attempts: Int { Int(attemptCount) }
        let handlerList: HandlerList
        /// ``attempts``, in as little room as the path has to spare.
        var attemptCount: UInt32 = 1

        init(
            eventID: EventID, hops: Int, captureHops: Int = 0, handlers: HandlerList = HandlerList(),
            info: EventInfo
        ) {
            self.eventID = eventID
            self.hops = hops
            self.captureHops = captureHops
            self.handlerList = handlers
            self.info = info
        }

        /// A path, for an outcome made outside a send: one decoded from another process, or a
        /// test double's.
        ///
        /// - Parameters:
        ///   - eventID: The correlation identifier of the send.
        ///   - hops: The number of hops that ran, capture hops included.
        ///   - captureHops: How many of them belonged to the capture pass (they ran first).
        ///   - handlers: The responders that handled the event, in order.
        ///   - captureHandlerCount: How many of the first `handlers` handled it in the capture
        ///     pass; at most `handlers.count`.
        ///   - info: The information added by the hops that ran.
        ///   - attempts: How many times the event was tried (see ``attempts``); at least 1.
        public init(
            eventID: EventID, hops: Int, captureHops: Int = 0, handlers: [ResponderID],
            captureHandlerCount: Int = 0, info: EventInfo = EventInfo(), attempts: Int = 1
        ) {
            precondition(hops >= 0 && (0...hops).contains(captureHops), "captureHops must be in 0...hops")
            precondition(
                (0...handlers.count).contains(captureHandlerCount),
                "captureHandlerCount must be in 0...handlers.count")
            var list = HandlerList()
            for (index, handler) in handlers.enumerated() {
                if index < captureHandlerCount {
                    list.appendCapturing(handler)
                } else {
                    list.append(handler)
                }
            }
            self.init(eventID: eventID, hops: hops, captureHops: captureHops, handlers: list, info: info)
            attemptCount = UInt32(clamping: max(1, attempts))
        }
    }

    /// The details of ``Outcome/handled(_:)``.
    public struct Handled: Sendable {
        /// The hops that ran, up to and including the one at ``stoppedAt``.
        public internal(set) var path: Path
        /// The responder where the event stopped: the one that returned ``Disposition/handled``,
        /// or the root, when every handler let it continue.
        public let stoppedAt: ResponderID
        /// The pass it stopped in: ``EventContext/Phase/capture`` when a capture handler stopped it
        /// before it reached the sender (``wasIntercepted``).
        public let phase: EventContext.Phase
        /// Whether a capture handler of ``stoppedAt`` stopped the event: the responders of the
        /// bubble never saw it.
        public var wasIntercepted: Bool { phase == .capture }
        /// The responders that handled the event, in order.
        public var handlers: [ResponderID] { path.handlers }
        /// The number of hops that ran.
        public var hops: Int { path.hops }
        /// The information added on the way, including by the handler that stopped it.
        public var info: EventInfo { path.info }

        /// The details of a handled send.
        public init(path: Path, stoppedAt: ResponderID, phase: EventContext.Phase = .bubble) {
            self.path = path
            self.stoppedAt = stoppedAt
            self.phase = phase
        }
    }

    /// The details of ``Outcome/unhandled(_:)``.
    public struct Unhandled: Sendable {
        /// The hops that ran, up to and including the one at ``root``.
        public internal(set) var path: Path
        /// The root the event reached.
        public let root: ResponderID
        /// The number of hops that ran.
        public var hops: Int { path.hops }

        /// The details of an unhandled send.
        public init(path: Path, root: ResponderID) {
            self.path = path
            self.root = root
        }
    }

    /// The details of ``Outcome/interrupted(_:)``.
    public struct Interruption: Sendable {
        /// The hops that ran, up to and including the one at ``lastReached``.
        public internal(set) var path: Path
        /// The last responder the event reached: it has no `next` and is not a root, or it
        /// could not hand the event on (``cause``).
        public let lastReached: ResponderID
        /// Why the chain broke there, when more is known than "no next": a link to a chain in
        /// another process that could not be reached, or lost the event mid-call. `nil` for a
        /// responder whose `next` was `nil`.
        public let cause: (any Error)?
        /// The number of hops that ran.
        public var hops: Int { path.hops }

        /// The details of an interrupted send.
        ///
        /// - Parameters:
        ///   - path: The hops that ran, up to and including the one at `lastReached`.
        ///   - lastReached: The last responder the event reached.
        ///   - cause: Why the chain broke there; `nil` for a missing `next`.
        public init(path: Path, lastReached: ResponderID, cause: (any Error)? = nil) {
            self.path = path
            self.lastReached = lastReached
            self.cause = cause
        }
    }

    /// The details of ``Outcome/cycleDetected(_:)``.
    public struct Cycle: Sendable {
        /// The hops that ran before the event came back to ``repeated``.
        public internal(set) var path: Path
        /// The responder reached a second time; its handlers did not run again.
        public let repeated: ResponderID
        /// The responder whose `next` led back; for a loop through forwarding, the responder
        /// where the forwarded event came back in.
        public let closedBy: ResponderID
        /// Whether the loop closed through forwarding rather than through `next` links: the
        /// event came back, by a send a handler made (a relay, a link to another chain), to a
        /// responder whose handler for it was still waiting on that send (see
        /// ``EventSystem/forwardingLimit``).
        public let isForwardingLoop: Bool

        /// The details of a send that met a cycle.
        public init(path: Path, repeated: ResponderID, closedBy: ResponderID, isForwardingLoop: Bool = false)
        {
            self.path = path
            self.repeated = repeated
            self.closedBy = closedBy
            self.isForwardingLoop = isForwardingLoop
        }
    }

    /// The details of ``Outcome/cancelled(_:)`` and ``Outcome/timedOut(_:)``.
    public struct Stop: Sendable {
        /// The hops that ran before the stop; ``responder``'s hop counts only when
        /// ``whileHandling``.
        public internal(set) var path: Path
        /// Where it stopped: the responder whose hop was running (``whileHandling``) or was about
        /// to run.
        public let responder: ResponderID
        /// The number of that hop, counted from 1 across both passes (see ``EventContext/hop``).
        public let hop: Int
        /// Whether the stop came while that responder's hop ran (`true`: its handler, or the
        /// read of its `next`, was under way when the stop was seen), or before the hop began
        /// (`false`: the responder never saw the event, and the hop is not counted in ``hops``).
        public let whileHandling: Bool
        /// What stopped the event.
        public let reason: Reason
        /// The pass of that hop: ``EventContext/Phase/capture`` when the event stopped before it reached
        /// the bubble.
        public let phase: EventContext.Phase
        /// The last responder whose hop ran: ``responder`` itself when the stop came
        /// ``whileHandling``, the one before it when the stop came before ``responder``'s hop,
        /// `nil` when no hop ran. It says where the event really was.
        public let lastReached: ResponderID?
        /// The number of hops that ran.
        public var hops: Int { path.hops }

        /// The details of a cancelled or timed-out send.
        ///
        /// - Parameters:
        ///   - path: The hops that ran before the stop.
        ///   - responder: The responder whose hop ran, or was about to run, when the stop came.
        ///   - hop: The number of that hop.
        ///   - whileHandling: Whether that hop was running.
        ///   - reason: What stopped the event.
        ///   - phase: The pass of that hop.
        ///   - lastReached: For a stop before `responder`'s hop, the last responder whose hop
        ///     ran (`nil`: none ran). Ignored when `whileHandling`: it is `responder` then.
        public init(
            path: Path, responder: ResponderID, hop: Int, whileHandling: Bool, reason: Reason,
            phase: EventContext.Phase = .bubble, lastReached: ResponderID? = nil
        ) {
            self.path = path
            self.responder = responder
            self.hop = hop
            self.whileHandling = whileHandling
            self.reason = reason
            self.phase = phase
            self.lastReached = whileHandling ? responder : lastReached
        }

        /// What stopped an event: ``Outcome/timedOut(_:)`` always has ``deadlinePassed``;
        /// ``Outcome/cancelled(_:)`` has one of the others.
        public enum Reason: Hashable, Sendable, CustomStringConvertible {
            /// The task of an awaited send was cancelled.
            case taskCancelled
            /// The ticket of a posted event was cancelled (``Ticket/cancel()``).
            case ticketCancelled
            /// The send's deadline passed.
            case deadlinePassed
            /// The system shut down before this posted event could finish
            /// (``EventSystem/shutDown(gracePeriod:)``).
            case shutdown
            /// The sender withdrew the event while it was under way: the window layer does so
            /// for a pointer event whose sequence was cancelled, so that no responder sees a
            /// phase of a sequence after its `cancelled`.
            case withdrawn
            /// The system shut down before the post's delivery began, and kept the post in its
            /// store for the next start (``EventSystem/Storage/store(_:)``): it is not lost, and
            /// does not go to the dead letters.
            case keptForNextStart

            /// `task cancelled`, `ticket cancelled`, `deadline passed`, `shutdown`, `withdrawn`.
            public var description: String {
                switch self {
                case .taskCancelled: return "task cancelled"
                case .ticketCancelled: return "ticket cancelled"
                case .deadlinePassed: return "deadline passed"
                case .shutdown: return "shutdown"
                case .withdrawn: return "withdrawn"
                case .keptForNextStart: return "kept for the next start"
                }
            }
        }
    }

    /// The details of ``Outcome/failed(_:)``.
    public struct Failure: Sendable {
        /// The path, up to and including the failing hop.
        public internal(set) var path: Path
        /// What the handler threw (a ``ResponderChainError`` (``ResponderChainError/Code/payloadTypeMismatch``) for a named event's wrong payload).
        public let error: any Error
        /// The responder whose handler threw.
        public let responder: ResponderID
        /// The number of that hop, counted from 1 across both passes (see ``EventContext/hop``).
        public let hop: Int
        /// The pass of that hop: ``EventContext/Phase/capture`` when a capture handler threw.
        public let phase: EventContext.Phase

        /// The details of a failed send.
        public init(
            path: Path, error: any Error, responder: ResponderID, hop: Int,
            phase: EventContext.Phase = .bubble
        ) {
            self.path = path
            self.error = error
            self.responder = responder
            self.hop = hop
            self.phase = phase
        }
    }

    /// The details of ``Outcome/rejected(_:)``.
    public struct Rejection: Sendable {
        /// Why a posted event was not accepted.
        public enum Reason: Hashable, Sendable, CustomStringConvertible {
            /// The system already held ``EventSystem/PostingLimit/maxOutstanding`` posted events and its
            /// policy is ``EventSystem/PostingLimit/Policy/reject``.
            case limitReached(maxOutstanding: Int)
            /// The posting task was cancelled while it waited for room (policy
            /// ``EventSystem/PostingLimit/Policy/suspend``).
            case posterCancelled
            /// The system is shutting down, or has shut down
            /// (``EventSystem/shutDown(gracePeriod:)``): it accepts no new posts.
            case shuttingDown
            /// The send was made from inside handlers nested `limit` deep (a handler's send, whose
            /// handler sends, …), the most the system allows (``EventSystem/forwardingLimit``):
            /// the last line of defence against forwarding that never ends.
            case forwardingLimitReached(limit: Int)
            /// The event would have waited for itself, forever: it needed a one-at-a-time
            /// responder (``Responder/handlingLock``) held by a handler that was
            /// waiting for this very event, or a place in its sender's queue behind a post whose
            /// handler was waiting for it. ``Outcome/Rejection/sender`` names the responder it
            /// would have waited for; the handler that waited gets this outcome and goes on.
            case wouldDeadlock
            /// The system's store could not store the post (``EventSystem/PostStore/store(_:)`` threw; the
            /// error's description is given): it was not accepted, and will never be delivered.
            case notStored(String)
            /// The system keeps its posts in a store, and the sender has no name to store them
            /// under: register it (``EventSystem/register(_:as:)``).
            case unnamedSender
            /// A post with the same idempotency key was accepted earlier, as `id` (see
            /// ``Responder/post(_:key:idempotencyKey:options:)``); `outcome` is its stored
            /// outcome, if it has finished. This post is not a second one: nothing more is
            /// delivered.
            case duplicate(of: EventID, outcome: EventSystem.StoredOutcome?)

            /// `posting limit of 1024 reached`, `poster cancelled while waiting for room`.
            public var description: String {
                switch self {
                case .limitReached(let limit): return "posting limit of \(limit) reached"
                case .posterCancelled: return "poster cancelled while waiting for room"
                case .shuttingDown: return "system shutting down"
                case .forwardingLimitReached(let limit): return "forwarding limit of \(limit) reached"
                case .wouldDeadlock: return "would wait for itself"
                case .notStored(let error): return "not stored: \(error)"
                case .unnamedSender: return "sender has no name to store the post under"
                case .duplicate(let id, _): return "duplicate of \(id)"
                }
            }
        }

        /// The path: no hops ran in the system that refused the event. (When another chain
        /// refused an event this chain forwarded, see ``Disposition/forwarded(_:)``, it holds this chain's hops.)
        public internal(set) var path: Path
        /// The responder that refused the event: the one it would have started at, or, for
        /// ``Reason/wouldDeadlock``, the one it would have waited for.
        public let sender: ResponderID
        /// Why it was not accepted.
        public let reason: Reason

        /// The details of a refused event.
        public init(path: Path, sender: ResponderID, reason: Reason) {
            self.path = path
            self.sender = sender
            self.reason = reason
        }
    }
}
