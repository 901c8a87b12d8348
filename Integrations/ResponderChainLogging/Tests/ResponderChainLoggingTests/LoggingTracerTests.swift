import InMemoryLogging
import Logging
import ResponderChain
import ResponderChainLogging
import Testing

private struct Probe: Event {}
private enum Stamp: InfoKey { typealias Value = String }

private actor Station: Responder {
    let name: String
    let parent: Station?
    let logger: Logger?

    init(_ name: String, parent: Station? = nil, logger: Logger? = nil) {
        self.name = name
        self.parent = parent
        self.logger = logger
    }

    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { parent == nil }
    nonisolated var label: String { name }

    static let strategies = Strategies<Station> {
        $0.on(Probe.self) { station, _, context in
            station.logger?.info("handling")
            context.info[Stamp.self] = station.name
            return .pass
        }
    }
}

@Suite("Logging tracer (swift-log)")
struct LoggingTracerTests {
    @Test("every point event of a send becomes one line carrying the event's id")
    func linesPerPointEvent() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "events") { _ in handler }
        logger.logLevel = .trace
        let top = Station("Top")
        let leaf = Station("Leaf", parent: top)

        let outcome = await leaf.send(
            Probe(),
            options: SendOptions(tracer: LoggingTracer(logger: logger), deadLetters: DeadLetterSink { _ in }))

        #expect(outcome.kind == .unhandled)
        let entries = handler.entries
        #expect(
            entries.map(\.message.description) == [
                "sent Probe", "hop pass", "hop pass", "dead letter: \(outcome)", "\(outcome)",
            ])
        #expect(entries.map(\.level) == [.debug, .debug, .debug, .warning, .notice])
        #expect(entries.allSatisfy { $0.metadata["event.id"] == "\(outcome.eventID)" })
        #expect(entries[1].metadata["responder"] == "Leaf")
        #expect(entries[2].metadata["hop"] == "2")
        #expect(entries[2].metadata["added"] == .array([.string("Stamp=Top")]))
        #expect(entries[4].metadata["outcome"] == "unhandled")
    }

    @Test("what a handler logs is tagged with the event's id through the metadata provider")
    func handlerLinesTagged() async throws {
        let handler = InMemoryLogHandler()
        let handlerLogger = Logger(label: "handlers") { _ in
            var handler = handler
            handler.metadataProvider = LoggingTracer.metadataProvider
            return handler
        }
        let silent = Logger(label: "events") { _ in SwiftLogNoOpLogHandler() }
        let root = Station("Root", logger: handlerLogger)

        let outcome = await root.send(Probe(), options: SendOptions(tracer: LoggingTracer(logger: silent)))

        let entry = try #require(handler.entries.first)
        #expect(entry.message.description == "handling")
        #expect(entry.metadata["event.id"] == "\(outcome.eventID)")
        handlerLogger.info("outside any hop")
        #expect(handler.entries.last?.metadata["event.id"] == nil)
    }
}
