// The system's wrappers around one hop (see `HopWrapper`): each gets the rest of the hop as its
// `next`, the innermost `next` being the responder's own `handle`.

extension EventContext {
    /// Runs `wrappers`, outermost first, around `responder`'s handlers.
    nonisolated(nonsending) static func run(
        _ wrappers: ArraySlice<any HopWrapper>,
        around responder: any Responder,
        event: any Event,
        context: inout EventContext
    ) async throws -> Disposition {
        guard let outermost = wrappers.first else {
            return try await responder.handle(event, context: &context)
        }
        let inner = wrappers.dropFirst()
        return try await outermost.handle(event, at: responder, context: &context) { context in
            try await run(inner, around: responder, event: event, context: &context)
        }
    }
}
