// The hop engine: what happens at one responder, on its isolation. `Router.route` loops over the
// hops; each kind of responder's `_visit` (see `Responders/`) enters its isolation once and calls
// one of these.

extension EventContext {
    /// Runs one hop at `responder`: its ``Responder/handle(_:context:)`` (inside the tracer's
    /// scope, if a tracer is installed), then a read of its ``Responder/next``. Every kind of
    /// responder's `_visit` calls this on the responder's isolation.
    ///
    /// For a responder with a ``Responder/handlingLock``, the hop first waits until no
    /// other event is being handled there (see Docs/Semantics.md, "Reentrancy"). The lock covers
    /// the handlers only: it is released as soon as they return, before `next` is read, so no
    /// task the handler started can pass through it after the handler is done.
    @usableFromInline
    nonisolated(nonsending) mutating func visit(_ responder: some Responder, event: any Event)
        async -> _Visit
    {
        guard let lock = responder.handlingLock else {
            return _Visit(result: await handleNow(responder, event: event), next: await responder.next)
        }
        var context = self
        let result: Result<Disposition, any Error>
        do throws(HandlingLock.Refusal) {
            result = try await lock.withLock {
                await context.handleNow(responder, event: event)
            }
        } catch {
            switch error {
            case .cancelled:
                // Stopped while waiting for the responder: the hop never began.
                return _Visit(result: .failure(HopNotEntered()), next: nil)
            case .wouldDeadlock:
                // The responder is held by a handler that waits for this very event.
                return _Visit(result: .failure(HopRefused(reason: .wouldDeadlock)), next: nil)
            }
        }
        self = context
        return _Visit(result: result, next: await responder.next)
    }

    /// Runs `responder`'s handlers where the caller runs (the responder's isolation, in every
    /// hop), inside the tracer's scope when the send is traced.
    @usableFromInline
    nonisolated(nonsending) mutating func handleNow(_ responder: some Responder, event: any Event)
        async -> Result<Disposition, any Error>
    {
        guard let trace else {
            guard wrappers != nil else { return await handleDirectly(responder, event: event) }
            do {
                return .success(try await runHandlers(responder, event: event))
            } catch {
                return .failure(error)
            }
        }
        return await handleTraced(responder, event: event, trace: trace, isolation: #isolation)
    }

    /// Runs `responder`'s handlers, inside the system's wrappers when it has any (see
    /// ``HopWrapper``): what every hop that is not plain runs, inside the tracer's scope if any.
    nonisolated(nonsending) mutating func runHandlers(_ responder: some Responder, event: any Event)
        async throws -> Disposition
    {
        guard let wrappers else { return try await responder.handle(event, context: &self) }
        return try await Self.run(wrappers[...], around: responder, event: event, context: &self)
    }

    /// Whether a hop at `responder` can take the direct path: no tracer to report to, no
    /// wrappers to run and no one-at-a-time lock to take.
    @inlinable
    @inline(__always)
    func canVisitDirectly(_ responder: some Responder) -> Bool {
        isPlain && responder.handlingLock == nil
    }

    /// Whether a hop at `responder` takes no one-at-a-time lock but is not plain: the handlers
    /// run inside the tracer's scope and the system's wrappers.
    @inlinable
    @inline(__always)
    func canVisitWithoutLock(_ responder: some Responder) -> Bool {
        responder.handlingLock == nil
    }

    /// The hop with nothing around it: the handlers, then a read of `next`. Inlinable, so that
    /// the default hop of a responder type is specialized for it where the type is declared.
    @inlinable
    @inline(__always)
    nonisolated(nonsending) mutating func visitDirectly(_ responder: some Responder, event: any Event)
        async -> _Visit
    {
        _Visit(result: await handleDirectly(responder, event: event), next: await responder.next)
    }

    /// The handlers with nothing around them, their error caught.
    @inlinable
    @inline(__always)
    nonisolated(nonsending) mutating func handleDirectly(_ responder: some Responder, event: any Event)
        async -> Result<Disposition, any Error>
    {
        do {
            return .success(try await responder.handle(event, context: &self))
        } catch {
            return .failure(error)
        }
    }
}
