import Foundation

/// responder-bench's command: parses the arguments, runs the selected scenarios and prints (and
/// writes) the reports.
package enum ResponderBench {
    /// Runs the command with `arguments` (without the program name) and returns its exit status.
    @MainActor
    package static func run(arguments: [String], allocations: AllocationCounter) async -> Int32 {
        let parsed: (Options, listOnly: Bool)
        do {
            parsed = try Options.parse(arguments)
        } catch {
            if let message = error.message { complain(message + "\n") }
            print(Options.usage)
            return error.message == nil ? 0 : 2
        }
        let (options, listOnly) = parsed

        if listOnly {
            for scenario in allScenarios {
                print("\(scenario.id.padding(toLength: 22, withPad: " ", startingAt: 0)) \(scenario.title)")
            }
            return 0
        }
        let selected = allScenarios.filter { options.filter.map($0.matches) ?? true }
        guard !selected.isEmpty else {
            complain("no scenario matches \(options.filter ?? "")")
            if !hasRemoteAndStoreScenarios {
                complain(
                    "the remote hop and store rows (remote, stored, postgres) are built with the trait: swift run -c release --package-path Benchmarks --traits RemoteAndStores responder-bench"
                )
            }
            return 2
        }

        let info = RunInfo.current(options)
        print("responder-bench · \(info.line)")
        if !hasRemoteAndStoreScenarios, options.filter == nil {
            print("(core rows: the remote hop and store rows need --traits RemoteAndStores)")
        }
        let measurer = Measurer(options: options, allocations: allocations)
        let started = ContinuousClock.now
        var rows: [Row] = []
        for scenario in selected {
            FileHandle.standardError.write(Data("running \(scenario.title)…\n".utf8))
            do {
                rows += try await scenario.run(measurer)
            } catch {
                complain("FAILED: \(scenario.title): \(error)")
                return 1
            }
        }
        let elapsed = started.duration(to: .now)

        print(Table(rows: rows).text)
        print(
            "(\(rows.count) rows in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); checksum \(measurer.checksum))"
        )

        do {
            if let path = options.jsonPath {
                try JSONReport(rows: rows, run: info.dictionary).text.write(
                    toFile: path, atomically: true, encoding: .utf8)
            }
            if let path = options.markdownPath {
                try (Table(rows: rows).markdown + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            }
            if let path = options.svgPath {
                try SVGChart(rows: rows, subtitle: info.line).text.write(
                    toFile: path, atomically: true, encoding: .utf8)
            }
        } catch {
            complain("could not write a report: \(error)")
            return 1
        }
        return 0
    }

    private static func complain(_ message: String) {
        FileHandle.standardError.write(Data("responder-bench: \(message)\n".utf8))
    }
}
