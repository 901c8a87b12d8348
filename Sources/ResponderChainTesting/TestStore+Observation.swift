public import ResponderChain

extension TestStore {
    /// A stream of the store's system's outcomes (`EventSystem.observeOutcomes(buffering:)`)
    /// that the store watches: ``finish(runningClock:sourceLocation:)`` names each element the
    /// test left unread in it.
    public func observeOutcomes(
        buffering: ObservationStream<EventSystem.FinishedSend>.Buffering = .default
    ) -> ObservationStream<EventSystem.FinishedSend> {
        let stream = system.observeOutcomes(buffering: buffering)
        state.withLock { $0.outcomeStreams.append(stream) }
        return stream
    }

    /// A stream of the store's system's dead letters (`EventSystem.observeDeadLetters(buffering:)`)
    /// that the store watches: ``finish(runningClock:sourceLocation:)`` names each element the
    /// test left unread in it.
    public func observeDeadLetters(
        buffering: ObservationStream<DeadLetter>.Buffering = .default
    ) -> ObservationStream<DeadLetter> {
        let stream = system.observeDeadLetters(buffering: buffering)
        state.withLock { $0.deadLetterStreams.append(stream) }
        return stream
    }
}
