extension Responder {
    /// Sends `event` up the chain from this responder and returns how it ended.
    ///
    /// The event visits this responder first (unless `options` say ``SendOptions/Start/atNext``),
    /// then each `next` in turn, read live at every hop. The hops run in the calling task, as
    /// direct awaits: cancelling the task stops the event before its next hop.
    ///
    /// ```swift
    /// let outcome = await lineItem.send(ItemAdded(sku: "A-1"))
    /// if case .handled(let handled) = outcome { print(handled.handlers) }
    /// ```
    @inlinable
    @discardableResult
    public nonisolated(nonsending) func send(
        _ event: some Event,
        options: SendOptions = .default
    ) async -> Outcome {
        await Router.send(event, from: self, source: .responder(self), options: options)
    }

    /// Sends a ``NamedEvent`` called `name` with `payload` up the chain from this responder.
    ///
    /// ```swift
    /// await cell.send(.addToCart, payload: product)
    /// ```
    @discardableResult
    public nonisolated(nonsending) func send(
        _ name: NamedEvent.Name,
        payload: some Sendable = (),
        options: SendOptions = .default
    ) async -> Outcome {
        await send(NamedEvent(name, payload: payload), options: options)
    }
}
