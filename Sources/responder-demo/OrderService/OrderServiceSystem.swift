import ResponderChain

/// The process-wide event system, bootstrapped once in `main.swift` before any event is sent: it
/// prints each event's trace and keeps the dead letters. No responder names it; all use it.
enum OrderServiceSystem {
    static let deadLetters = DeadLetterBox()

    static let system = EventSystem(
        tracer: PrintingTracer(printer: TracePrinter(showsDurations: false)) { block in
            print(block.split(separator: "\n").map { "     " + $0 }.joined(separator: "\n"))
        },
        deadLetters: DeadLetterSink { letter in
            await deadLetters.keep(letter)
            print(
                "   ✉︎ dead letter: \(letter.event.traceName) from \(letter.source) — \(letter.outcome.kind)")
        }
    )
}

/// Where the demo keeps its dead letters (a real service would log them or retry).
actor DeadLetterBox {
    private(set) var letters: [DeadLetter] = []
    var count: Int { letters.count }
    func keep(_ letter: DeadLetter) { letters.append(letter) }
}
