// responder-bench: each scenario of the library against a hand-written baseline doing the same
// work, in the same run. See Docs/Benchmarks.md.

import Foundation

let parsed: (Options, listOnly: Bool)
do {
    parsed = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("responder-bench: \(message)\n\n".utf8))
    }
    print(Options.usage)
    exit(error.message == nil ? 0 : 2)
}
let (options, listOnly) = parsed

let selected = allScenarios.filter { options.filter.map($0.matches) ?? true }
if listOnly {
    for scenario in allScenarios {
        print("\(scenario.id.padding(toLength: 22, withPad: " ", startingAt: 0)) \(scenario.title)")
    }
    exit(0)
}
guard !selected.isEmpty else {
    FileHandle.standardError.write(
        Data("responder-bench: no scenario matches \(options.filter ?? "")\n".utf8))
    exit(2)
}

let info = RunInfo.current(options)
print("responder-bench · \(info.line)")
let measurer = Measurer(options: options)
let started = ContinuousClock.now
var rows: [Row] = []
for scenario in selected {
    FileHandle.standardError.write(Data("running \(scenario.title)…\n".utf8))
    rows += await scenario.run(measurer)
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
    FileHandle.standardError.write(Data("responder-bench: could not write a report: \(error)\n".utf8))
    exit(1)
}
