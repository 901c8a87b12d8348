// The hop engine: what happens at one responder, on its isolation. `Router.route` loops over the
// hops; each kind of responder's `_visit` (see `Responders/`) enters its isolation once and calls
// `hop(at:event:)` there.
//
//   _visit (enters the isolation) ─▶ hop ─┬ plain: handle ─▶ read next
//                                         └ hopInFull: hold? ─▶ trace scope? ─▶ middleware ─▶ handle
//                                                              ─▶ read next

/// What one hop came to, as the route reads it (``EventContext/hopResult``).
@usableFromInline
enum HopResult: Sendable {
    /// The handlers, and the middleware around them, decided.
    case decided(Disposition)
    /// A handler, or the middleware around it, threw.
    case threw(any Error)
    /// The send was stopped (cancelled, timed out) while it waited to enter a one-at-a-time
    /// responder: the hop never began.
    case notEntered
    /// The responder refused to let the event in: the hop never began.
    case refused(Outcome.Rejection.Reason)
}

extension EventContext {
    /// Runs one hop at `responder`, where the caller runs (every kind of responder's `_visit`
    /// calls it on the responder's isolation): the handlers, with what runs around them, then a
    /// read of ``Responder/next``. Sets ``hopResult``; returns the next responder, or `nil` at
    /// the end of the chain or when the hop never began.
    ///
    /// A hop with nothing around the handlers (no tracer, no system middleware, no hold) is the
    /// handlers and the read of `next`, inlined into the responder type's `_visit`.
    @inlinable
    @inline(__always)
    nonisolated(nonsending) mutating func hop(at responder: some Responder, event: any Event)
        async -> (any Responder)?
    {
        guard isPlain, responder.handlingLock == nil else {
            guard await hopInFull(at: responder, event: event) else { return nil }
            return await responder.next
        }
        do {
            hopResult = .decided(try await responder.handle(event, context: &self))
        } catch {
            hopResult = .threw(error)
        }
        return await responder.next
    }

    /// The hop with something around the handlers: the responder's ``Responder/handlingLock``, the tracer's scope,
    /// the system's middleware (see ``HopMiddleware`` for the order). Returns whether the hop
    /// began.
    ///
    /// The hold covers the handlers only: it is released as soon as they return, before `next`
    /// is read, so no task the handler started can pass through it after the handler is done.
    @inlinable
    @inline(__always)
    nonisolated(nonsending) mutating func hopInFull(at responder: some Responder, event: any Event)
        async -> Bool
    {
        guard let lock = responder.handlingLock else {
            hopResult = await handlersAround(responder, event: event)
            return true
        }
        return await hopHolding(lock, at: responder, event: event)
    }

    /// The hop of a responder that handles one event at a time: the handlers inside `lock`.
    @usableFromInline
    nonisolated(nonsending) mutating func hopHolding(
        _ lock: HandlingLock, at responder: some Responder, event: any Event
    ) async -> Bool {
        var context = self
        do throws(HandlingLock.Refusal) {
            context.hopResult = try await lock.withLock(graph: {
                await responder.eventSystem.postOffice.waitForGraph
            }) {
                await context.handlersAround(responder, event: event)
            }
        } catch {
            switch error {
            case .cancelled: hopResult = .notEntered
            case .wouldDeadlock: hopResult = .refused(.wouldDeadlock)
            }
            return false
        }
        self = context
        return true
    }

    /// The handlers inside the tracer's scope, if the send is traced, and the system's middleware.
    @inlinable
    @inline(__always)
    nonisolated(nonsending) mutating func handlersAround(_ responder: some Responder, event: any Event)
        async -> HopResult
    {
        if let trace {
            return await traced(responder, event: event, trace: trace, isolation: #isolation)
        }
        return await handlersInMiddleware(responder, event: event)
    }

    /// The handlers inside the system's middleware, what they threw caught.
    @inlinable
    @inline(__always)
    nonisolated(nonsending) mutating func handlersInMiddleware(_ responder: some Responder, event: any Event)
        async -> HopResult
    {
        do {
            // No middleware, or one (the common configurations): called directly, so that in a
            // responder type's specialized hop the handlers are a direct call too, without the
            // general runner's frame (Docs/Benchmarks.md, "Instructions per hop").
            if middleware.isEmpty {
                return .decided(try await responder.handle(event, context: &self))
            }
            if middleware.count == 1 {
                return .decided(
                    try await middleware[0].handle(event, at: responder, context: &self) { context in
                        try await responder.handle(event, context: &context)
                    })
            }
            return .decided(
                try await Self.run(middleware[...], at: responder, event: event, context: &self))
        } catch {
            return .threw(error)
        }
    }
}
