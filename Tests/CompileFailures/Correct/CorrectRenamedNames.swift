// The control for RenamedNames.swift and RenamedNamesInWindowLayer.swift: the same code written
// with the names that replaced the old ones, which must typecheck with no error and no warning.

import ResponderUI

/// Middleware that lets every hop run.
struct Audit: HopMiddleware {
    nonisolated(nonsending) func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext,
        next: HopMiddleware.Next
    ) async throws -> Disposition {
        try await next(&context)
    }
}

/// A responder whose table uses middleware and a proxy.
actor Order: Responder {
    var next: (any Responder)? { nil }
    let details = Details()

    static let strategies = Strategies<Order> {
        $0.use { order, event, context, next in try await next(&context) }
        $0.proxy { $0.details }
    }
}

/// The proxy.
actor Details: Responder {
    var next: (any Responder)? { nil }
}

/// The new names of the old types.
func newTypes() {
    let _: HopMiddleware.Next? = nil
    let _: Disposition? = nil
    let _: ResponderChainError? = nil
    let _: EventContext.Phase? = nil
    let _: DeadLetter.Sink? = nil
    let _: Hop.Record? = nil
    let _: Hop.Scope<String>? = nil
    let _: Hop.Isolation? = nil
    let _: Hop.AddedInfo? = nil
    let _: PrintingTracer.Printer? = nil
    let _: NamedEvent.Name? = nil
    let _: EventSystem.ShutdownReport? = nil
    let _: EventSystem.PostingLimit? = nil
    let _: EventSystem.FinishedSend? = nil
    let _: ObservationStream<Outcome>.Buffering? = nil
}

/// The system's new names.
func newSystem() {
    _ = EventSystem(runsCapturePhase: true)
    let system = EventSystem(middleware: [Audit()])
    _ = system.middleware
    _ = system.runsCapturePhase
}

/// The table's new names.
func newTable(_ strategies: inout Strategies<Order>) {
    strategies.removeMiddleware()
    strategies.removeProxy()
    _ = strategies.middlewareCount
}

/// The new lock, read.
func newFlag(_ order: Order) {
    let _: HandlingLock? = order.handlingLock
}

/// A view.
final class Cell: View {
    /// A pointer method: an entry of the class's table.
    override func pointerBegan(_ pointer: PointerEvent) -> Disposition { .handled }
}

/// A view with its own table, filled where the old code overrode `respond(to:context:)`.
final class Badge: View {
    override init(frame: Rect = .zero, label: String? = nil) {
        super.init(frame: frame, label: label)
        strategies.onAnyEvent { badge, event, context in .pass }
    }
}

/// The window layer's new names.
@MainActor
func newRegistration(_ cell: Cell) {
    let _: Strategies<Cell> = cell.strategies
    _ = View.strategies.handles(PointerEvent.self)
    cell.strategies.use { cell, event, context, next in try await next(&context) }
    cell.strategies.proxy { _ in nil }
    cell.strategies.removeProxy()
}

/// The application's new label.
@MainActor
func newApplication() -> Application {
    Application(system: EventSystem())
}
