import InMemoryLogging
import Logging
import ResponderChain
import ResponderChainLogging
import ResponderChainTesting
import Testing

private struct Probe: Event {}
private enum Stamp: InfoKey { typealias Value = String }

/// A responder that logs `handling` to `logger` (when given) and stamps its name on the event,
/// then passes it on; the root of its chain when it has no parent.
private func station(
    _ name: String, parent: ScriptedResponder? = nil, logger: Logger? = nil
) -> ScriptedResponder {
    let stamp = ScriptedResponder.Step.perform { _, context in
        logger?.info("handling")
        context.info[Stamp.self] = name
    }
    return ScriptedResponder(name, .init([stamp], then: .pass), parent: parent, root: parent == nil)
}

/// A logger at `level` whose lines `handler` keeps.
private func inMemoryLogger(_ label: String, level: Logger.Level) -> (Logger, InMemoryLogHandler) {
    let handler = InMemoryLogHandler()
    var logger = Logger(label: label) { _ in handler }
    logger.logLevel = level
    return (logger, handler)
}

@Suite("Logging tracer (swift-log)")
struct LoggingTracerTests {
    @Test("every point event of a send becomes one line carrying the event's id")
    func linesPerPointEvent() async throws {
        let (logger, handler) = inMemoryLogger("events", level: .trace)
        let top = station("Top")
        let leaf = station("Leaf", parent: top)

        let outcome = await leaf.send(
            Probe(),
            options: SendOptions(tracer: LoggingTracer(logger: logger), deadLetters: DeadLetter.Sink { _ in })
        )

        #expect(outcome.kind == .unhandled)
        let entries = handler.entries
        #expect(
            entries.map(\.message.description) == [
                "sent Probe", "hop pass", "hop pass", "dead letter: \(outcome)", "\(outcome)",
            ])
        #expect(entries.map(\.level) == [.debug, .debug, .debug, .warning, .notice])
        #expect(entries.allSatisfy { $0.metadata["event.id"] == .string(outcome.eventID.debugDescription) })
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
        let root = station("Root", logger: handlerLogger)

        let outcome = await root.send(Probe(), options: SendOptions(tracer: LoggingTracer(logger: silent)))

        let entry = try #require(handler.entries.first)
        #expect(entry.message.description == "handling")
        #expect(entry.metadata["event.id"] == .string(outcome.eventID.debugDescription))
        handlerLogger.info("outside any hop")
        #expect(handler.entries.last?.metadata["event.id"] == nil)
    }

    @Test("its gate declines a send none of whose lines could reach the log, when it does not tag handlers")
    func declinesBelowLevel() async throws {
        let (quiet, handler) = inMemoryLogger("events", level: .error)
        let tracer = LoggingTracer(logger: quiet, tagsHandlerLines: false)
        let root = station("Root")

        // Declining loses nothing: no line of the send could have passed, and nothing is tagged.
        #expect(!tracer.shouldTrace(Probe(), from: .responder(root)))
        let outcome = await root.send(
            Probe(), options: SendOptions(tracer: tracer, deadLetters: DeadLetter.Sink { _ in }))
        #expect(outcome.kind == .unhandled)
        #expect(handler.entries.isEmpty)

        // A line that could pass (at the handled level, or a warning) keeps sends traced; so
        // does tagging the handlers' lines, whatever the level.
        #expect(
            LoggingTracer(logger: quiet, handledLevel: .error, tagsHandlerLines: false).shouldTrace(
                Probe(), from: .responder(root)))
        var warnings = quiet
        warnings.logLevel = .warning
        #expect(
            LoggingTracer(logger: warnings, tagsHandlerLines: false).shouldTrace(
                Probe(), from: .responder(root)))
        #expect(LoggingTracer(logger: quiet).shouldTrace(Probe(), from: .responder(root)))
    }

    @Test("above the handled level, a traced send logs only its notices and warnings")
    func filteredLines() async throws {
        let (logger, handler) = inMemoryLogger("events", level: .info)
        let tracer = LoggingTracer(logger: logger)
        let top = station("Top")
        let leaf = station("Leaf", parent: top)

        let outcome = await leaf.send(
            Probe(), options: SendOptions(tracer: tracer, deadLetters: DeadLetter.Sink { _ in }))

        #expect(outcome.kind == .unhandled)
        #expect(handler.entries.map(\.level) == [.warning, .notice])
        #expect(
            handler.entries.allSatisfy {
                $0.metadata["event.id"] == .string(outcome.eventID.debugDescription)
            })
    }
}
