// The system's names the one-model release replaced (Docs/Migration.md), kept only so that code
// written against them fails to compile with an error that names the replacement. All are
// unavailable: nothing can call them; their bodies say what the old names meant.

extension EventSystem {
    /// Replaced by a `Bool`, ``runsCapturePhase``.
    @available(
        *, unavailable,
        message: "the capture pass is a Bool: 'EventSystem(runsCapturePhase: true)', read 'runsCapturePhase'"
    )
    public enum CapturePhase: Hashable, Sendable {
        /// Replaced by `runsCapturePhase: false`.
        case disabled
        /// Replaced by `runsCapturePhase: true`.
        case enabled
    }

    /// Replaced by ``runsCapturePhase``.
    @available(*, unavailable, message: "read 'runsCapturePhase' (a Bool)")
    public var capturePhase: CapturePhase { runsCapturePhase ? .enabled : .disabled }

    /// Renamed ``middleware``.
    @available(*, unavailable, renamed: "middleware")
    public var wrappers: [any HopMiddleware] { middleware }

    /// Replaced by ``init(tracer:deadLetters:postingLimit:runsCapturePhase:middleware:forwardingLimit:)``.
    @available(
        *, unavailable,
        message:
            "'capturePhase: .enabled' is now 'runsCapturePhase: true' and 'wrappers:' is now 'middleware:'"
    )
    public convenience init(
        tracer: (any Tracer)? = nil,
        deadLetters: DeadLetter.Sink? = nil,
        postingLimit: EventSystem.PostingLimit = .default,
        capturePhase: CapturePhase,
        wrappers: [any HopMiddleware] = [],
        forwardingLimit: Int = EventSystem.defaultForwardingLimit
    ) {
        self.init(
            tracer: tracer, deadLetters: deadLetters, postingLimit: postingLimit,
            runsCapturePhase: capturePhase == .enabled, middleware: wrappers, forwardingLimit: forwardingLimit
        )
    }

    /// Replaced by ``init(tracer:deadLetters:postingLimit:runsCapturePhase:middleware:forwardingLimit:)``.
    @available(
        *, unavailable,
        renamed: "init(tracer:deadLetters:postingLimit:runsCapturePhase:middleware:forwardingLimit:)"
    )
    public convenience init(
        tracer: (any Tracer)? = nil,
        deadLetters: DeadLetter.Sink? = nil,
        postingLimit: EventSystem.PostingLimit = .default,
        runsCapturePhase: Bool = false,
        wrappers: [any HopMiddleware],
        forwardingLimit: Int = EventSystem.defaultForwardingLimit
    ) {
        self.init(
            tracer: tracer, deadLetters: deadLetters, postingLimit: postingLimit,
            runsCapturePhase: runsCapturePhase, middleware: wrappers, forwardingLimit: forwardingLimit)
    }
}
