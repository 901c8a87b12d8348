import ResponderChain

/// The process-wide event system, bootstrapped once in `main.swift` before any event is sent: it
/// prints each event's trace and keeps the dead letters, runs the capture pass (the session
/// captures quantity changes during checkout) and checks authorization around every hop. No
/// responder names it; all use it.
enum OrderServiceSystem {
    static let deadLetters = DeadLetterBox()

    static let system = EventSystem(
        tracer: PrintingTracer(printer: PrintingTracer.Printer(showsDurations: false)) { block in
            print(block.split(separator: "\n").map { "     " + $0 }.joined(separator: "\n"))
        },
        deadLetters: DeadLetter.Sink { letter in
            await deadLetters.keep(letter)
            print(
                "   ✉︎ dead letter: \(letter.event.traceName) from \(letter.source) — \(letter.outcome.kind)")
        },
        runsCapturePhase: true,
        middleware: [Authorization()]
    )
}

/// A wrapper around every hop: the responders that handle money (`SupportOnly`) see an event
/// only when the sender acts with the support role; anyone else is refused there, and the send
/// ends failed with `NotAuthorized`.
struct Authorization: HopMiddleware {
    func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: HopMiddleware.Next
    ) async throws -> Disposition {
        if responder is any SupportOnly, event is RefundRequested, context.info[Role.self] != "support" {
            throw NotAuthorized(responder: ResponderID(responder))
        }
        return try await next(&context)
    }
}

/// The responders the authorization wrapper guards.
protocol SupportOnly: Responder {}

/// Where the demo keeps its dead letters (a real service would log them or retry).
actor DeadLetterBox {
    private(set) var letters: [DeadLetter] = []
    var count: Int { letters.count }
    func keep(_ letter: DeadLetter) { letters.append(letter) }
}
