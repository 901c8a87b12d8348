import ResponderUI

/// Scenario 6b: what gesture recognizers add to each pointer event a window delivers. The same
/// drag (``GestureScene``: `began`, 30 `moved`, `ended` on a cell in a small tree, the
/// application's system on a `ManualClock`) is dispatched with `Window.dispatch(_:at:pointer:)` in
/// four windows, measured in alternation: one with no recognizer, the baseline column of the
/// others; a pan on the cell's ancestor that never begins; one that begins; a tap on the cell that
/// fails while the pan claims the sequence. The figures are per pointer event; each variant's
/// drag is checked once before it is timed (what the cell got, how each attempt ended, nothing
/// left over).
struct GestureRecognizers: Scenario {
    let id = "gestures"
    let title = "6b gesture recognizers"

    func run(_ measurer: Measurer) async throws -> [Row] {
        let scenes = GestureScene.Variant.allCases.map(GestureScene.init)
        for scene in scenes { try await scene.check() }
        let samples = await measurer.measure(scenes.map { scene in { await scene.drag(iterations: $0) } })
        let baseline = samples[0]
        let added = zip(scenes, samples).dropFirst().map { scene, sample in
            let difference = sample.median - baseline.median
            return "\(difference >= 0 ? "+" : "")\(Format.number(difference)) ns (\(scene.variant.shortName))"
        }
        let note =
            "6b: ns per pointer event, over a drag of \(GestureScene.eventsPerDrag) events (began, "
            + "\(GestureScene.moves) moved, ended) dispatched on a cell under a list in a 4-view window, "
            + "the application's system on a ManualClock advanced 8 ms per event (await "
            + "clock.advance(by:)); the baseline column is the "
            + "same drag with no recognizer; the cell handles every phase it gets (with the claiming pan: "
            + "began, 2 moved, then cancelled); added per pointer event: " + added.joined(separator: ", ")
        return zip(scenes, samples).enumerated().map { index, pair in
            Row(
                id: id, scenario: "\(title), \(pair.0.variant.name)", depth: nil, hops: 1,
                library: pair.1, baseline: index == 0 ? nil : baseline, target: .report, note: note)
        }
    }
}

extension GestureScene.Variant {
    /// The variant's name in the scenario's note.
    fileprivate var shortName: String {
        switch self {
        case .noRecognizer: return "none"
        case .panTracking: return "pan tracking"
        case .panBegins: return "pan begins"
        case .tapFailsPanClaims: return "tap fails, pan claims"
        }
    }
}
