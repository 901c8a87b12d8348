public import Instrumentation
public import ResponderChain

/// The entry responders a process exposes to others: where events that other processes' links
/// hand over continue, each under a name.
///
/// Each request's event continues at its entry as a relay's would (its source is
/// `relay(remote <sender>)`), with the information the other side added, and the time left
/// before its deadline. It is *posted* in the entry's event system, and the reply waits for its
/// ticket: the system's posting limit applies to what other processes send (its `.suspend`
/// policy slows them down, `.reject` refuses with a typed outcome), and a system shutting down
/// refuses new events (`rejected`, `shuttingDown`) and ends those under way as its drain says.
///
/// ```swift
/// let entries = RemoteEntries(["orders": orderService], registry: registry)
/// let server = RemoteChainServer(entries: entries, port: 9_000)   // or InProcessTransport(entries)
/// ```
public struct RemoteEntries: Sendable {
    /// The entries, held weakly (through a relay each).
    private let entries: [String: Relay]
    /// What may cross.
    public let registry: RemoteRegistry
    private let instrument: (any Instrument)?
    /// The event system whose clock the calls' deadlines are read on: the entries' system
    /// (a request's time left becomes its event's deadline there, and a call's deadline, read
    /// when it arrives, counts on the same clock).
    public let eventSystem: EventSystem

    /// Entries under names.
    ///
    /// - Parameters:
    ///   - entries: The responders other processes' links may name, by name. Held weakly: an
    ///     entry that is gone refuses requests (``RemoteRefusal/entryGone(_:)``).
    ///   - registry: The events and information that may cross; the same names as the other
    ///     side's.
    ///   - instrument: What reads the trace context a request carries into the `ServiceContext`
    ///     its event is posted with (so that a `SpanTracer`'s spans here join the sender's
    ///     trace); `nil` for `InstrumentationSystem`'s.
    ///   - system: The entries' event system, whose clock the calls' deadlines are read on.
    public init(
        _ entries: [String: any Responder], registry: RemoteRegistry, instrument: (any Instrument)? = nil,
        system: EventSystem = .default
    ) {
        self.entries = entries.mapValues { Relay(entry: $0, label: "remote") }
        self.registry = registry
        self.instrument = instrument
        self.eventSystem = system
    }

    /// The names of the exposed entries.
    public var names: [String] { entries.keys.sorted() }

    /// Sends `request`'s event up the chain from its entry and answers how it ended, or why it
    /// was refused. `peer` names the other process, for the event's source.
    ///
    /// Cancelling the calling task (the other side gave up the call) cancels the event's ticket.
    public func reply(to request: RemoteRequest, from peer: String) async -> RemoteReply {
        await reply(to: request, from: peer, call: nil)
    }

    /// ``reply(to:from:)`` for a call that `call` can also give up (``RemoteChainService`` hands
    /// it gRPC's cancellation of the call).
    func reply(to request: RemoteRequest, from peer: String, call: RemoteCall?) async -> RemoteReply {
        var senders: [String: Relay] = [:]
        switch await accept(request, from: peer, senders: &senders, awaited: true) {
        case .refused(let refusal):
            return RemoteReply(answering: request.version, .refused(refusal))
        case .posted(let ticket):
            guard let call else { return await reply(awaiting: ticket, version: request.version) }
            // As in `reply(awaiting:)`, the end of this task cancels the ticket.
            let outcome = await withTaskCancellationHandler {
                await call.outcome(of: ticket)
            } onCancel: {
                ticket.cancel()
            }
            return RemoteReply(answering: request.version, .outcome(WireOutcome(outcome, registry: registry)))
        }
    }

    /// How a request was taken: refused before its event was posted, or posted.
    enum Acceptance: Sendable {
        case refused(RemoteRefusal)
        case posted(Ticket)
    }

    /// Checks `request` and posts its event at its entry, from the relay `senders` holds for
    /// that entry (made on first use): the requests of one `senders` are posted as one sender's,
    /// in the order they are accepted. Returns once the event is queued (the posting limit may
    /// make it wait). An `awaited` request's event is marked so (``ArrivedAwaited``): a link
    /// further on sends it as an awaited send, not on its sender's ordered stream.
    func accept(
        _ request: RemoteRequest, from peer: String, senders: inout [String: Relay], awaited: Bool = false
    ) async -> Acceptance {
        guard WireFormat.readVersions.contains(request.version) else {
            return .refused(.unsupportedVersion(request.version))
        }
        guard request.hopsBefore >= 0 else {
            return .refused(.undecodable("RemoteRequest.hopsBefore is \(request.hopsBefore)"))
        }
        guard request.hopsBefore <= WireOutcome.maxHops else {
            return .refused(
                .undecodable("RemoteRequest.hopsBefore is \(request.hopsBefore), over \(WireOutcome.maxHops)")
            )
        }
        guard let relay = entries[request.entry] else {
            return .refused(.unknownEntry(request.entry))
        }
        guard let entry = relay.entry else {
            return .refused(.entryGone(request.entry))
        }
        let event: any Event
        var options = SendOptions()
        do {
            event = try registry.read(request.event)
            try registry.read(request.info, into: &options.info)
        } catch {
            return .refused(error)
        }
        options.timeout = request.timeLeftNanoseconds.map { .nanoseconds(max(0, $0)) }
        if awaited { options.info[ArrivedAwaited.self] = true }
        let sender = senders[request.entry] ?? Relay(entry: entry, label: "remote \(peer): \(request.source)")
        senders[request.entry] = sender
        if let context = TraceHeaders.extract(request.traceHeaders, using: instrument) {
            // A tracer of this system captures the context at post time: its spans join the trace.
            return .posted(
                await ServiceContext.$current.withValue(context) {
                    await sender.post(event, options: options)
                })
        }
        return .posted(await sender.post(event, options: options))
    }

    /// The reply that tells how `ticket`'s event ended, in wire format `version`. Cancelling
    /// the calling task cancels the ticket.
    func reply(awaiting ticket: Ticket, version: Int) async -> RemoteReply {
        let outcome = await withTaskCancellationHandler {
            await ticket.outcome
        } onCancel: {
            ticket.cancel()
        }
        return RemoteReply(answering: version, .outcome(WireOutcome(outcome, registry: registry)))
    }
}
