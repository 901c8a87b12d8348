@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = TracingFixtures

@Suite("Trace printing")
struct TracingPrinterTests {
    @Test("one event's trace prints as a header, one aligned line per hop, and the outcome")
    func printsHops() async {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let stamper = F.Station(tracing: "Stamper", .stamp("s-1"), parent: top)
        let screen = await F.Screen("Screen", .pass, parent: stamper)

        let outcome = await screen.send(F.Ping(), options: SendOptions(tracer: tracer))

        let lines = tracer.lines(for: outcome.eventID, printer: PrintingTracer.Printer(showsDurations: false))
        #expect(
            lines == [
                "\(outcome.eventID) Ping from Screen",
                "  1  Screen   MainActor  pass",
                "  2  Stamper  actor      handledAndContinue  +Stamp=s-1",
                "  3  Top      actor      handled",
                "  = handled by Stamper, Top after 3 hops",
            ])
    }

    @Test("with durations off, the same sends print the same lines on every run, posted events too")
    func stableWithoutDurations() async {
        let printer = PrintingTracer.Printer(showsDurations: false)
        func run() async -> [[String]] {
            let tracer = RecordingTracer()
            let top = F.Station(tracing: "Top", .handle, root: true)
            let failing = F.Station(tracing: "Failing", .fail, parent: top)
            let orphan = F.Station(tracing: "Orphan", .stamp("o"))
            let options = SendOptions(tracer: tracer)
            let awaited = await failing.send(F.Ping(), options: options)
            let broken = await orphan.send(F.Ping(), options: options)
            let capture = TraceCapture.posting(
                F.Ping(), from: .responder(top), through: .default, options: options)
            let posted = await Task.detached {
                await Router.send(
                    F.Ping(), from: top, source: .responder(top), options: options, trace: capture)
            }.value
            // Replace the ids, which differ between runs by design.
            return [awaited, broken, posted].map { outcome in
                tracer.lines(for: outcome.eventID, printer: printer).map {
                    $0.replacing("\(outcome.eventID)", with: "#id")
                }
            }
        }

        let first = await run()
        let second = await run()

        #expect(first == second)
        #expect(
            first == [
                [
                    "#id Ping from Failing",
                    "  1  Failing  actor  threw Boom()",
                    "  = failed at hop 1, Failing threw Boom()",
                ],
                [
                    "#id Ping from Orphan",
                    "  1  Orphan  actor  handledAndContinue  +Stamp=o",
                    "  = interrupted after Orphan (not a root, no next) after 1 hop",
                ],
                [
                    "#id Ping from Top (posted)",
                    "  1  Top  actor  handled",
                    "  = handled by Top after 1 hop",
                ],
            ])
    }

    @Test("with durations on, a posted event's header says how long it was queued")
    func queuedDuration() async throws {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let options = SendOptions(tracer: tracer)
        let capture = TraceCapture.posting(
            F.Ping(), from: .responder(top), through: .default, options: options)
        let outcome = await Router.send(
            F.Ping(), from: top, source: .responder(top), options: options, trace: capture)

        let header = try #require(tracer.lines(for: outcome.eventID).first)
        #expect(header.hasPrefix("\(outcome.eventID) Ping from Top (queued "))
        #expect(header.hasSuffix(")"))
    }

    @Test("with durations on, each hop line ends with the time its handlers took")
    func printsDurations() async {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)

        let outcome = await leaf.send(F.Ping(), options: SendOptions(tracer: tracer))

        let hopLines = tracer.lines(for: outcome.eventID).dropFirst().dropLast()
        #expect(hopLines.count == 2)
        for line in hopLines {
            #expect(["ns", "µs", "ms", "s"].contains { line.hasSuffix($0) }, "\(line)")
        }
    }

    @Test("a dead-lettered event prints that line after its outcome")
    func printsDeadLetter() async {
        let tracer = RecordingTracer()
        let root = F.Station(tracing: "Root", .pass, root: true)
        let outcome = await root.send(
            F.Ping(), options: SendOptions(tracer: tracer, deadLetters: DeadLetter.Sink { _ in }))
        let lines = tracer.lines(for: outcome.eventID, printer: PrintingTracer.Printer(showsDurations: false))
        #expect(lines.suffix(2) == ["  = unhandled at root Root after 1 hop", "  = dead-lettered"])
    }

    @Test(
        "durations print in the largest unit that keeps them readable",
        arguments: [
            (Duration.nanoseconds(850), "850ns"), (.nanoseconds(3_140), "3.1µs"),
            (.microseconds(12_050), "12.0ms"), (.milliseconds(2_500), "2.5s"),
        ])
    func formatsDurations(duration: Duration, printed: String) {
        #expect(PrintingTracer.Printer.format(duration) == printed)
    }

    @Test("the printing tracer hands each finished event's block to its sink, one block per event")
    func printingTracer() async {
        let blocks = Locked<[String]>([])
        let tracer = PrintingTracer(printer: PrintingTracer.Printer(showsDurations: false)) { block in
            blocks.withLock { $0.append(block) }
        }
        let top = F.Station(tracing: "Top", .handle, root: true)
        let first = await top.send(F.Ping(), options: SendOptions(tracer: tracer))
        let second = await top.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(
            blocks.withLock { $0 } == [
                "\(first.eventID) Ping from Top\n  1  Top  actor  handled\n  = handled by Top after 1 hop",
                "\(second.eventID) Ping from Top\n  1  Top  actor  handled\n  = handled by Top after 1 hop",
            ])
    }
}
