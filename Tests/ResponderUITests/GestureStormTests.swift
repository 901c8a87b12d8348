import ResponderChain
import ResponderChainTesting
import ResponderUI
import Testing

/// What one recognizer of a storm did, in order: `fired <state>` at each state change that sends
/// chain events, `end <state>` when an attempt ended, `reset` when it went back to `possible`.
@MainActor
final class RecognizerHistory {
    var entries: [String] = []
}

/// The built-in recognizers, reporting their resets to a history.
@MainActor
private final class StormTap: TapGestureRecognizer {
    let history = RecognizerHistory()
    override func reset() {
        super.reset()
        history.entries.append("reset")
    }
}

@MainActor
private final class StormPress: LongPressGestureRecognizer {
    let history = RecognizerHistory()
    override func reset() {
        super.reset()
        history.entries.append("reset")
    }
}

@MainActor
private final class StormPan: PanGestureRecognizer {
    let history = RecognizerHistory()
    override func reset() {
        super.reset()
        history.entries.append("reset")
    }
}

@MainActor
private final class StormSwipe: SwipeGestureRecognizer {
    let history = RecognizerHistory()
    override func reset() {
        super.reset()
        history.entries.append("reset")
    }
}

@MainActor
private final class StormPinch: PinchGestureRecognizer {
    let history = RecognizerHistory()
    override func reset() {
        super.reset()
        history.entries.append("reset")
    }
}

@MainActor
private final class StormRotation: RotationGestureRecognizer {
    let history = RecognizerHistory()
    override func reset() {
        super.reset()
        history.entries.append("reset")
    }
}

/// Hears every attempt's end, lets some pairs recognize together and declines some at random
/// (the storm's generator decides, once, at the start).
@MainActor
private final class StormDelegate: GestureRecognizerDelegate {
    var histories: [ObjectIdentifier: RecognizerHistory] = [:]
    var together: Set<[ObjectIdentifier]> = []
    var declining: Set<ObjectIdentifier> = []
    /// Recognizers whose delegate disables them while asked to begin (and says yes): teardown
    /// from inside the decision.
    var disablingWhenAsked: Set<ObjectIdentifier> = []

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        if disablingWhenAsked.contains(ObjectIdentifier(recognizer)) { recognizer.isEnabled = false }
        return !declining.contains(ObjectIdentifier(recognizer))
    }

    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        together.contains(
            [ObjectIdentifier(recognizer), ObjectIdentifier(other)].sorted { $0.hashValue < $1.hashValue })
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, didEnd attempt: GestureAttempt) {
        histories[ObjectIdentifier(recognizer)]?.entries.append("end \(attempt.state)")
    }
}

/// A storm: recognizers of every kind (long presses of zero duration, which win at the down,
/// among them), with random settings (some delegates decline, some disable their recognizer
/// while asked to begin), on random views of a
/// ``RandomViewTree`` whose views handle every pointer event; random pointers go down, move a
/// little or far, lift or are cancelled; the clock jumps; sometimes the tree changes.
@MainActor
private final class GestureStorm {
    let tree: RandomViewTree
    /// The clock of the application's system: the gestures' time and timers.
    let clock = ManualClock()
    let delegate = StormDelegate()
    private(set) var recognizers: [(recognizer: GestureRecognizer, history: RecognizerHistory)] = []
    private var down: [Int: Point] = [:]
    private var nextPointer = 1

    init(seed: UInt64) throws {
        tree = RandomViewTree(seed: seed, clock: clock)
        for view in tree.views { view.pointerDisposition = .handled }
        let hosts: [View] = tree.views + [tree.scene.controller.view]
        for _ in 0..<tree.random.int(in: 2...6) {
            let (recognizer, history) = makeRecognizer()
            recognizer.delegate = delegate
            recognizer.cancelsTouchesInView = !tree.random.chance(20)
            recognizer.delaysTouchesBegan = tree.random.chance(20)
            recognizer.delaysTouchesEnded = !tree.random.chance(20)
            recognizer.addChainEvent { recognizer in
                history.entries.append("fired \(recognizer.state)")
                return UIFixtures.Ping(tag: recognizer.label)
            }
            delegate.histories[ObjectIdentifier(recognizer)] = history
            let host = tree.random.pick(hosts)
            host.addGestureRecognizer(recognizer)
            tree.script.append("\(recognizer.label) on \(host.label)")
            recognizers.append((recognizer, history))
        }
        for (index, first) in recognizers.enumerated() {
            if tree.random.chance(10) { delegate.declining.insert(ObjectIdentifier(first.recognizer)) }
            if tree.random.chance(5) {
                delegate.disablingWhenAsked.insert(ObjectIdentifier(first.recognizer))
            }
            for second in recognizers[(index + 1)...] {
                if tree.random.chance(20) {
                    delegate.together.insert(
                        [ObjectIdentifier(first.recognizer), ObjectIdentifier(second.recognizer)]
                            .sorted { $0.hashValue < $1.hashValue })
                }
                if tree.random.chance(10) {
                    try? first.recognizer.require(toFail: second.recognizer)
                }
            }
        }
    }

    private func makeRecognizer() -> (GestureRecognizer, RecognizerHistory) {
        let label = "r\(recognizers.count)"
        switch tree.random.int(in: 0...5) {
        case 0:
            let tap = StormTap(
                label: "\(label) tap", numberOfTapsRequired: tree.random.int(in: 1...2),
                numberOfPointersRequired: tree.random.chance(80) ? 1 : 2)
            return (tap, tap.history)
        case 1:
            // One in five decides at the down: an eager winner.
            let press = StormPress(
                label: "\(label) press", minimumPressDuration: .milliseconds(tree.random.chance(20) ? 0 : 500)
            )
            return (press, press.history)
        case 4:
            let pinch = StormPinch(label: "\(label) pinch")
            return (pinch, pinch.history)
        case 5:
            let rotation = StormRotation(label: "\(label) rotation")
            return (rotation, rotation.history)
        case 2:
            let pan = StormPan(label: "\(label) pan")
            return (pan, pan.history)
        default:
            let swipe = StormSwipe(
                label: "\(label) swipe", direction: tree.random.pick([.right, .left, [.up, .down]]))
            return (swipe, swipe.history)
        }
    }

    func run(steps: Int) async {
        let window = tree.scene.window
        for _ in 0..<steps {
            switch tree.random.int(in: 0...99) {
            case 0..<25 where down.count < 3:
                let place = tree.randomPlace()
                down[nextPointer] = place
                tree.script.append("down \(nextPointer) \(place)")
                await window.dispatch(.began, at: place, pointer: PointerID(nextPointer))
                nextPointer += 1
            case 0..<55 where !down.isEmpty:
                let pointer = tree.random.pick(Array(down.keys).sorted())
                let far = tree.random.chance(40)
                let step = Double(tree.random.int(in: 1...(far ? 60 : 6)))
                let old = down[pointer]!
                let place =
                    tree.random.chance(50)
                    ? Point(x: old.x + step, y: old.y) : Point(x: old.x, y: old.y - step)
                down[pointer] = place
                tree.script.append("move \(pointer) \(place)")
                await window.dispatch(.moved, at: place, pointer: PointerID(pointer))
            case 0..<80 where !down.isEmpty:
                let pointer = tree.random.pick(Array(down.keys).sorted())
                let cancelled = tree.random.chance(10)
                tree.script.append("\(cancelled ? "cancel" : "up") \(pointer)")
                await window.dispatch(
                    cancelled ? .cancelled : .ended, at: down[pointer]!, pointer: PointerID(pointer))
                down[pointer] = nil
            case 80..<97:
                let milliseconds = tree.random.int(in: 1...700)
                tree.script.append("wait \(milliseconds)")
                await clock.advance(by: .milliseconds(milliseconds))
            default:
                tree.interfere()
            }
            await window.gestureEventsSent()
        }
        for pointer in down.keys.sorted() {
            await window.dispatch(.ended, at: down[pointer]!, pointer: PointerID(pointer))
        }
        down = [:]
        await clock.advance(by: .seconds(5))
        tree.finalDetach()
        await clock.advance(by: .seconds(5))
        await window.gestureEventsSent()
    }

    /// What is wrong, against the oracle; empty when nothing is.
    func problems() -> [String] {
        var problems = tree.views.flatMap { sequenceProblems(in: $0.log, of: $0.label) } + tree.stillActive()
        if clock.pendingTimerCount != 0 { problems.append("\(clock.pendingTimers) left") }
        for (recognizer, history) in recognizers {
            if recognizer.state != .possible || recognizer.numberOfPointers != 0 {
                problems.append("\(recognizer.label) not at rest: \(recognizer.state)")
            }
            problems += attemptProblems(history.entries).map { "\(recognizer.label): \($0)" }
        }
        return problems
    }

    /// Each attempt must read: the chain events of its state changes, one `end`, one `reset`;
    /// `recognized` fired just before `end recognized`; `began`, `changed`… then `ended` or
    /// `cancelled` fired before its end; nothing fired for a failure.
    private func attemptProblems(_ entries: [String]) -> [String] {
        var problems: [String] = []
        var attempt: [String] = []
        for entry in entries {
            attempt.append(entry)
            guard entry == "reset" else { continue }
            let fired = attempt.filter { $0.hasPrefix("fired") }.map { $0.dropFirst(6) }
            let ends = attempt.filter { $0.hasPrefix("end") }.map { String($0.dropFirst(4)) }
            let wellFormed: Bool
            switch ends {
            case ["recognized"]: wellFormed = fired == ["recognized"]
            case ["failed"]: wellFormed = fired.isEmpty
            case ["ended"], ["cancelled"]:
                wellFormed =
                    fired.first == "began" && fired.last == ends.first.map { Substring($0) }
                    && fired.dropFirst().dropLast().allSatisfy { $0 == "changed" }
            default: wellFormed = false
            }
            if !wellFormed { problems.append(attempt.joined(separator: ", ")) }
            attempt = []
        }
        if !attempt.isEmpty { problems.append("unfinished: \(attempt.joined(separator: ", "))") }
        return problems
    }
}

@MainActor
@Suite("Gesture storms")
struct GestureStormTests {
    @Test(
        "a random pointer storm over random recognizers: each view's sequence ends once, each attempt ends in one terminal state, nothing is left"
    )
    func randomStorm() async throws {
        var failures: [String] = []
        for seed in UInt64(1)...200 {
            let storm = try GestureStorm(seed: seed)
            await storm.run(steps: 60)
            let problems = storm.problems()
            if !problems.isEmpty { failures.append("seed \(seed): \(problems) after \(storm.tree.script)") }
        }
        #expect(failures.isEmpty, "\(failures.count) seeds failed; first: \(failures.first ?? "")")
    }

    @Test("a storm's window, views and recognizers are freed once it is over")
    func nothingLeaks() async throws {
        weak var window: Window?
        var recognizers: [WeakBox] = []
        do {
            let storm = try GestureStorm(seed: 7)
            await storm.run(steps: 60)
            window = storm.tree.scene.window
            recognizers = storm.recognizers.map { WeakBox($0.recognizer) }
        }
        #expect(window == nil)
        #expect(recognizers.allSatisfy { $0.recognizer == nil })
    }
}

/// A recognizer held weakly.
@MainActor
private struct WeakBox {
    weak var recognizer: GestureRecognizer?
    init(_ recognizer: GestureRecognizer) { self.recognizer = recognizer }
}
