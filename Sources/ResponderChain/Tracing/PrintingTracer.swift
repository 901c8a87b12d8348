/// A tracer that renders each event's trace with a ``PrintingTracer/Printer`` when the event finishes and
/// hands the text (one block of lines per event) to a sink of your choice.
///
/// ```swift
/// let chain = EventSystem(tracer: PrintingTracer { print($0) })
/// ```
///
/// Point events are buffered per event until its ``TraceEvent/finished(_:)``, so that the blocks
/// of concurrent events never interleave; the sink runs in the task that routed the event.
public final class PrintingTracer: Tracer {
    private let printer: PrintingTracer.Printer
    private let sink: @Sendable (String) -> Void
    private let pending = Locked<[EventID: [TraceEvent]]>([:])

    /// A tracer that prints through `sink`, rendered by `printer`.
    public init(
        printer: PrintingTracer.Printer = PrintingTracer.Printer(),
        _ sink: @escaping @Sendable (String) -> Void
    ) {
        self.printer = printer
        self.sink = sink
    }

    /// Buffers `event`; renders and emits the event's trace when it finishes.
    public func record(_ event: TraceEvent) {
        let finished = pending.withLock { pending -> [TraceEvent]? in
            pending[event.eventID, default: []].append(event)
            guard case .finished = event else { return nil }
            return pending.removeValue(forKey: event.eventID)
        }
        if let finished {
            sink(printer.render(finished))
        }
    }
}
