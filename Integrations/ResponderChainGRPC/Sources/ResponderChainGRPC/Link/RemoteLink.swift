public import Instrumentation
public import ResponderChain
import ResponderChainStoredEvents
import Synchronization

/// A link to a chain in another process: the end of this process's chain, where every event it
/// reaches continues at an entry responder of the other process (``RemoteEntries``), with one
/// outcome for the whole path.
///
/// Put it where the chain should go on elsewhere — as the `next` of this process's root-most
/// responder:
///
/// ```swift
/// let backend = RemoteLink(
///     entry: "orders", transport: GRPCRemoteTransport(host: "127.0.0.1", port: 9_000),
///     registry: registry, label: "orders@backend")
/// try await backend.checkRegistry()
///
/// actor Gateway: Responder {
///     let backend: RemoteLink
///     var next: (any Responder)? { backend }
/// }
/// ```
///
/// At its hop the link writes the event and the information added so far (under the names
/// ``RemoteRegistry`` gives them), with the time left before the send's deadline (on the link's
/// system's clock, `EventContext.timeLeft`) and the trace
/// context (what the instrument writes for the hop's `ServiceContext`: with a `SpanTracer` on
/// both systems, the other side's spans are children of the link's hop span), and waits for the
/// other process's outcome. The send then ends with that outcome,
/// continued from the link's hop (see `Disposition.forwarded`): the other chain's kind and the responder
/// there, this chain's hops and handlers followed by the other chain's, the information of both.
///
/// | what happens | the send ends |
/// |---|---|
/// | the event's type, or a key of its information, is not registered | `.failed` at the link (``RemoteLinkError``); nothing is sent |
/// | the other process cannot be reached | `.interrupted` at the link, cause ``RemoteLinkError/unreachable(_:)`` |
/// | it refuses the request (unknown entry or name, other version) | `.interrupted` at the link, cause ``RemoteLinkError/refused(_:)`` |
/// | the call fails midway | `.interrupted` at the link, cause ``RemoteLinkError/lost(_:)`` — the event may have run there; it is not sent again |
/// | the other system is shutting down, or its posting limit refuses | `.rejected` with that reason |
/// | the send's task is cancelled, or its deadline passes, while the link waits | `.cancelled` / `.timedOut` at the link, the other side's call given up: there the event's ticket is cancelled, or, at the deadline, the event ends timed out by its own deadline (where the other side stopped comes back only if its answer arrived first, as over `InProcessTransport`) |
/// | anything else | the other chain's outcome |
///
/// Interrupted and rejected sends go to this system's dead letters, as always.
public actor RemoteLink: Responder {
    /// The name of the entry responder in the other process.
    public nonisolated let entry: String
    /// The link's label in outcomes and traces.
    public nonisolated let label: String
    /// The system the link belongs to.
    public nonisolated let eventSystem: EventSystem
    /// What may cross.
    public nonisolated let registry: RemoteRegistry
    private nonisolated let transport: any RemoteTransport
    private nonisolated let instrument: (any Instrument)?
    private nonisolated let responders = RemoteResponderDirectory()
    /// The wire format version the link writes: ``WireFormat/version`` until
    /// ``checkRegistry()`` finds the other side reads only an older one.
    private nonisolated let wireVersion = Atomic<Int>(WireFormat.version)

    /// A link to the entry named `entry` of the process `transport` reaches.
    ///
    /// - Parameters:
    ///   - entry: The entry's name in the other process's ``RemoteEntries``.
    ///   - transport: How the other process is reached.
    ///   - registry: The events and information that may cross (the other side registers the
    ///     same names).
    ///   - label: The link's label; `remote(<entry>)` by default.
    ///   - system: The event system of the chain the link ends.
    ///   - instrument: What writes the trace context of the hop into each request (a W3C
    ///     propagator writes `traceparent`); `nil` for `InstrumentationSystem`'s, read at each
    ///     send.
    public init(
        entry: String, transport: any RemoteTransport, registry: RemoteRegistry, label: String? = nil,
        system: EventSystem = .default, instrument: (any Instrument)? = nil
    ) {
        self.entry = entry
        self.transport = transport
        self.instrument = instrument
        self.registry = registry
        self.label = label ?? "remote(\(entry))"
        self.eventSystem = system
    }

    /// The end of this process's chain: what follows is the other process's.
    public var next: (any Responder)? { nil }

    /// Every event is carried over.
    public static let strategies = Strategies<RemoteLink> {
        $0.onAnyEvent { link, event, context in
            return .forwarded(try await link.outcome(of: event, context: context))
        }
    }

    /// Compares this side's registered names with the other side's, and agrees on the wire
    /// format: call it at start-up.
    ///
    /// From then on the link writes the newest wire format version both sides read (a peer that
    /// predates wire format 3 reads version 2, where every event value is of schema version 1).
    ///
    /// - Throws: ``RemoteLinkError/registryMismatch(missingEvents:missingInfo:)`` when the other
    ///   side lacks names this side registers;
    ///   ``RemoteLinkError/schemaVersionNotRead(event:version:reads:)`` when it does not read the
    ///   schema version this side writes for one of them (an older binary, before its upgrade);
    ///   ``RemoteLinkError/wireVersionsDisjoint(theirs:)`` when no wire format version is read by
    ///   both; the transport's error when it cannot be reached.
    public nonisolated func checkRegistry() async throws {
        let theirs = try await transport.registryNames()
        let ours = registry.names
        let missingEvents = ours.events.filter { !theirs.events.contains($0) }
        let missingInfo = ours.info.filter { !theirs.info.contains($0) }
        guard missingEvents.isEmpty, missingInfo.isEmpty else {
            throw RemoteLinkError.registryMismatch(missingEvents: missingEvents, missingInfo: missingInfo)
        }
        guard theirs.wireVersions.overlaps(WireFormat.readVersions) else {
            throw RemoteLinkError.wireVersionsDisjoint(theirs: theirs.wireVersions)
        }
        // Agreed first: an event the other side cannot read fails at the link, typed, in the
        // version it does read, rather than being refused there for the format.
        wireVersion.store(
            theirs.wireVersions.clamped(to: WireFormat.readVersions).upperBound, ordering: .relaxed)
        for event in ours.events {
            let written = registry.events.version(of: event) ?? 1
            let read = theirs.versions(ofEvent: event)
            guard read.contains(written) else {
                throw RemoteLinkError.schemaVersionNotRead(event: event, version: written, reads: read)
            }
        }
    }

    /// The other chain's outcome of `event`, or the interruption at this link that stands for
    /// it. Throws what keeps the event from being sent (``RemoteLinkError``), and
    /// `CancellationError` when the send is stopped while the link waits.
    nonisolated func outcome(of event: any Event, context: EventContext) async throws -> Outcome {
        let version = wireVersion.load(ordering: .relaxed)
        let value = try registry.write(event)
        // Wire format 2 carries no schema version: its reader reads every value as version 1.
        if version < 3, value.schemaVersion != 1 {
            throw RemoteLinkError.schemaVersionNotRead(
                event: value.name, version: value.schemaVersion, reads: 1...1)
        }
        let request = RemoteRequest(
            version: version,
            entry: entry,
            event: value,
            info: try registry.writeForSending(context.info),
            source: context.source.description,
            hopsBefore: context.hop,
            timeLeftNanoseconds: context.timeLeft?.clampedNanoseconds,
            traceHeaders: TraceHeaders.inject(using: instrument))
        let reply: RemoteReply
        do {
            // A post its sender's lane delivers may go on a stream that keeps the sender's order;
            // once it is placed there, the sender's next post may go while this one waits. An
            // event that arrived here by an awaited call is posted here too, but stays awaited.
            let isPost = context.canReleaseSenderLane && context.info[ArrivedAwaited.self] != true
            let placed: (() -> Void)? = isPost ? { context.releaseSenderLane() } : nil
            reply = try await transport.deliver(
                request, sender: RemoteSenderKey(context.source), placed: placed)
        } catch let error as RemoteLinkError {
            if Task.isCancelled { throw CancellationError() }
            // Refused before anything was sent: the send fails here, as for an unregistered event.
            if case .tooLarge = error { throw error }
            return broken(error, context: context)
        } catch {
            if Task.isCancelled || error is CancellationError { throw CancellationError() }
            return broken(.lost("\(error)"), context: context)
        }
        let outcome: Outcome
        do {
            outcome = try Outcome(reply, eventID: context.eventID, registry: registry, responders: responders)
        } catch {
            return broken(error, context: context)
        }
        // Cancelled there because this side gave up the call (its deadline, or its task):
        // the stop is this side's, and the system reports it at the link with its reason.
        if Task.isCancelled, case .cancelled(let stop) = outcome, stop.reason == .ticketCancelled {
            throw CancellationError()
        }
        return outcome
    }

    /// The chain broken at this link, for `cause`: no hop ran beyond it.
    private nonisolated func broken(_ cause: RemoteLinkError, context: EventContext) -> Outcome {
        .interrupted(
            Outcome.Interruption(
                path: Outcome.Path(eventID: context.eventID, hops: 0, handlers: []),
                lastReached: ResponderID(self), cause: cause))
    }
}
