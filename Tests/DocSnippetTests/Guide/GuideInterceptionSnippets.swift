// swift-format-ignore-file
// Docs/Guide.md's Swift blocks of step 11, verbatim (checked by DocSnippetTests).

import ResponderChain

// snippet: Docs/Guide.md 25
struct KeyPressed: Event { let key: Character }

extension EventSystem {
    static let forms = EventSystem(runsCapturePhase: true)
}
protocol FormResponder: Responder {}
extension FormResponder {
    nonisolated var eventSystem: EventSystem { .forms }
}

actor Form: FormResponder {
    var isSubmitting = false
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Form> {
        // Sees every key pressed in a field below it, before the field does.
        $0.on(KeyPressed.self, phase: .capture) { form, key, context in
            form.isSubmitting ? .handled : .pass       // swallowed while submitting
        }
    }
}

actor Field: FormResponder {
    let form: Form
    var text = ""
    var next: (any Responder)? { form }
    init(form: Form) { self.form = form }

    static let strategies = Strategies<Field> {
        $0.on(KeyPressed.self) { field, key, context in
            field.text.append(key.key)
            return .handled
        }
    }
}
// end snippet

extension Guide {
    static func stepElevenCapture(field: Field) async {
        // snippet: Docs/Guide.md 26
        let outcome = await field.send(KeyPressed(key: "a"))
        if case .handled(let handled) = outcome, handled.wasIntercepted {
            print("intercepted by", handled.stoppedAt)       // the form: the field never saw it
        }
        // end snippet
    }
}

// snippet: Docs/Guide.md 27
enum Caller: InfoKey { typealias Value = String }
struct NotAuthorized: Error { let responder: ResponderID }
protocol AdminOnly: Responder {}

struct Authorization: HopMiddleware {
    func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext,
        next: HopMiddleware.Next
    ) async throws -> Disposition {
        if responder is any AdminOnly, context.info[Caller.self] != "admin" {
            throw NotAuthorized(responder: ResponderID(responder))   // the send ends .failed
        }
        return try await next(&context)
    }
}
let guarded = EventSystem(middleware: [Authorization()])

actor Refunds: AdminOnly {
    private(set) var slowest = Duration.zero
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }
    nonisolated var eventSystem: EventSystem { guarded }

    static let strategies = Strategies<Refunds> {
        $0.use { refunds, event, context, next in       // around this responder's handlers
            let start = ContinuousClock.now
            defer { refunds.slowest = max(refunds.slowest, .now - start) }
            return try await next(&context)
        }
        $0.on(ItemAdded.self) { refunds, event, context in .handled }
    }
}
// end snippet
