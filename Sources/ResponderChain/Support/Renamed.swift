// The names the one-model release replaced (Docs/Migration.md), kept only so that code written
// against them fails to compile with an error that names the replacement (a fix-it where the
// replacement is a plain rename) instead of "cannot find in scope". All are unavailable: nothing
// can use them, and they are not part of the documented API.

/// Renamed ``HopMiddleware``.
@available(*, unavailable, renamed: "HopMiddleware")
public typealias HopWrapper = HopMiddleware

/// Renamed ``HopMiddleware/Next``.
@available(*, unavailable, renamed: "HopMiddleware.Next")
public typealias HopWrapperNext = HopMiddleware.Next

/// Replaced by ``Disposition/forwarded(_:)``.
@available(
    *, unavailable,
    message: "forwarding is a disposition: 'return .forwarded(await relay.send(event))' instead of throwing"
)
public typealias Forwarded = Disposition

/// Replaced by ``ResponderChainError``.
@available(
    *, unavailable,
    message: "the library throws 'ResponderChainError'; match 'code == .payloadTypeMismatch'"
)
public typealias PayloadTypeMismatch = ResponderChainError

/// Replaced by ``ResponderChainError``.
@available(
    *, unavailable,
    message:
        "the library throws 'ResponderChainError'; match 'code == .proxyCycle' (its 'responder' is the proxy)"
)
public typealias ProxyCycle = ResponderChainError

/// Replaced by ``ResponderChainError``.
@available(
    *, unavailable,
    message: "the library throws 'ResponderChainError'; match 'code == .capturePhaseDisabled'"
)
public typealias CapturePhaseDisabled = ResponderChainError

/// Replaced by ``ResponderChainError``.
@available(
    *, unavailable,
    message:
        "the library throws 'ResponderChainError'; match 'code == .tracerSkippedHandlers' or 'code == .tracerRanHandlersAgain'"
)
public typealias TracerViolation = ResponderChainError

/// Renamed ``EventContext/Phase``.
@available(*, unavailable, renamed: "EventContext.Phase")
public typealias EventPhase = EventContext.Phase

/// Renamed ``DeadLetter/Sink``.
@available(*, unavailable, renamed: "DeadLetter.Sink")
public typealias DeadLetterSink = DeadLetter.Sink

/// Renamed ``Hop/Record``.
@available(*, unavailable, renamed: "Hop.Record")
public typealias HopRecord = Hop.Record

/// Renamed ``Hop/Scope``.
@available(*, unavailable, renamed: "Hop.Scope")
public typealias HopScope<Context: Sendable> = Hop.Scope<Context>

/// Renamed ``Hop/Isolation``.
@available(*, unavailable, renamed: "Hop.Isolation")
public typealias HopIsolation = Hop.Isolation

/// Renamed ``Hop/AddedInfo``.
@available(*, unavailable, renamed: "Hop.AddedInfo")
public typealias AddedInfo = Hop.AddedInfo

/// Renamed ``PrintingTracer/Printer``.
@available(*, unavailable, renamed: "PrintingTracer.Printer")
public typealias TracePrinter = PrintingTracer.Printer

/// Renamed ``NamedEvent/Name``.
@available(*, unavailable, renamed: "NamedEvent.Name")
public typealias EventName = NamedEvent.Name

/// Renamed ``EventSystem/ShutdownReport``.
@available(*, unavailable, renamed: "EventSystem.ShutdownReport")
public typealias ShutdownReport = EventSystem.ShutdownReport

/// Renamed ``EventSystem/PostingLimit``.
@available(*, unavailable, renamed: "EventSystem.PostingLimit")
public typealias PostingLimit = EventSystem.PostingLimit

/// Renamed ``EventSystem/FinishedSend``.
@available(*, unavailable, renamed: "EventSystem.FinishedSend")
public typealias FinishedSend = EventSystem.FinishedSend

/// Renamed ``ObservationStream/Buffering``.
@available(*, unavailable, renamed: "ObservationStream.Buffering")
public typealias ObservationBuffering = ObservationStream<Never>.Buffering

/// Renamed ``EventSystem``. No fix-it: a responder's `router` property became `eventSystem` too,
/// and a `router` declared with the new type would be a property of its own that nothing reads.
@available(
    *, unavailable,
    message:
        "'EventRouter' is now 'EventSystem', and a responder's 'router' is now 'nonisolated var eventSystem: EventSystem'; rename both"
)
public typealias EventRouter = EventSystem
