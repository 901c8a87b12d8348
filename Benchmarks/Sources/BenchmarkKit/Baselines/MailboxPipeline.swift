import ResponderChain

/// Baseline for scenario 4: one `AsyncStream` mailbox and one consumer task per responder. Each
/// consumer looks the event up in the ``BareHandlerTable`` and, unless it handled it, yields it
/// into the next mailbox. FIFO per sender comes from the streams.
final class MailboxPipeline: Sendable {
    /// What travels through the mailboxes: an event, or a marker that the top stage answers once
    /// everything a sender posted before it has gone through.
    private enum Mail: Sendable {
        case event(any Event)
        case flush(CheckedContinuation<Void, Never>)
    }

    private let entry: AsyncStream<Mail>.Continuation

    /// A pipeline of `depth` stages, each with its consumer task started.
    init(depth: Int) {
        var downstream: AsyncStream<Mail>.Continuation?
        for level in stride(from: depth, to: 0, by: -1) {
            let (stream, continuation) = AsyncStream<Mail>.makeStream()
            let isTop = level == depth
            let next = downstream
            Task.detached {
                var seen = 0
                for await mail in stream {
                    switch mail {
                    case .event(let event):
                        if BareHandlerTable.standard.handle(event, isTop: isTop, seen: &seen)
                            == .pass
                        {
                            next?.yield(mail)
                        }
                    case .flush(let done):
                        if let next { next.yield(mail) } else { done.resume() }
                    }
                }
                next?.finish()
            }
            downstream = continuation
        }
        // `depth >= 1`, so the loop ran at least once.
        entry = downstream ?? AsyncStream<Mail>.makeStream().continuation
    }

    /// Posts `event` without waiting for it.
    func post(_ event: any Event) {
        entry.yield(.event(event))
    }

    /// Returns once everything this caller posted before has reached the top.
    func flush() async {
        await withCheckedContinuation { entry.yield(.flush($0)) }
    }

    /// Ends every consumer task (the finish cascades up the pipeline).
    func shutDown() {
        entry.finish()
    }
}
