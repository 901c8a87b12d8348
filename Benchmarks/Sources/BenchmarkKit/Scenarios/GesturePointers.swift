import ResponderChainTesting
import ResponderUI

/// Scenario 6c: what a pointer event costs with many pointers down. A window whose list carries
/// a pan that tracks every pointer and never begins (and does not cancel touches), `live`
/// pointers held down on the cell; then one more pointer moves back and forth, dispatched with
/// `Window.dispatch(_:at:pointer:)`, the application's system on a `ManualClock`. Per pointer
/// event, with 1, 10 and 1,000 live pointers; the baseline column is the one-pointer figure.
/// Target: at most 2× the one-pointer cost at 1,000.
struct GesturePointers: Scenario {
    let id = "gesture-pointers"
    let title = "6c gestures with many live pointers"

    func run(_ measurer: Measurer) async throws -> [Row] {
        let counts = [1, 10, 1_000]
        var scenes: [LivePointersScene] = []
        for count in counts {
            let scene = LivePointersScene()
            await scene.press(count - 1)
            try await scene.check(live: count)
            scenes.append(scene)
        }
        let samples = await measurer.measure(scenes.map { scene in { await scene.moves(iterations: $0) } })
        let one = samples[0]
        return zip(counts, samples).map { count, sample in
            Row(
                id: id, scenario: "\(title): \(count) live pointer\(count == 1 ? "" : "s")",
                depth: nil, hops: 1, library: sample, baseline: count == 1 ? nil : one,
                target: count == 1_000 ? .ratioAtMost(2) : .report,
                note:
                    "6c: ns per moved event of one pointer while the others stay down on the cell; "
                    + "a pan on the list tracks them all (never begins, does not cancel touches); "
                    + "the baseline column is the same with that pointer alone")
        }
    }
}

/// The window of scenario 6c.
@MainActor
final class LivePointersScene {
    let application: Application
    let clock = ManualClock()
    let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 800))
    let list = View(frame: Rect(x: 0, y: 0, width: 400, height: 800), label: "list")
    let cell = GestureScene.CountingView(frame: Rect(x: 0, y: 100, width: 400, height: 400), label: "cell")
    let pan = PanGestureRecognizer(label: "pan")
    /// The pointer that moves.
    let mover = PointerID(0)
    private var flip = false

    init() {
        application = Application(system: EventSystem(clock: clock), label: "bench")
        window.addSubview(list)
        list.addSubview(cell)
        application.addWindow(window)
        pan.cancelsTouchesInView = false
        pan.minimumDistance = 1_000_000
        list.addGestureRecognizer(pan)
    }

    /// Puts the moving pointer down, and `others` more, each on its own spot of the cell.
    func press(_ others: Int) async {
        await window.dispatch(.began, at: Point(x: 10, y: 110), pointer: mover)
        for index in 0..<others {
            let location = Point(x: 20 + Double(index % 300), y: 120 + Double(index / 300) * 10)
            await window.dispatch(.began, at: location, pointer: PointerID(1 + index))
        }
    }

    /// Checks that every pointer is down and tracked by the pan.
    func check(live: Int) async throws {
        guard window.activePointers.count == live, pan.numberOfPointers == live, pan.state == .possible else {
            throw BenchFailure(
                "6c: \(window.activePointers.count) active pointers, the pan tracks \(pan.numberOfPointers) "
                    + "in state \(pan.state), expected \(live)")
        }
    }

    /// `iterations` moves of the moving pointer, timed per event.
    func moves(iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for _ in 0..<iterations {
            flip.toggle()
            let location = Point(x: flip ? 14 : 10, y: 110)
            if await window.dispatch(.moved, at: location, pointer: mover) != nil { checksum &+= 1 }
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }
}
