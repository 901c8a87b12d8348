// The scene the gesture suites run in: a list holding a row holding a Buy button, recording
// views, the application's system on a manual clock, recognizers described as values (so that a row of a scenario
// table can name them), and a journal of every attempt's end and every chain event sent.
import ResponderChain
import ResponderChainTesting
import ResponderUI
import Testing

/// A recognizer a scenario attaches, described as a value.
struct GestureSpec: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case tap(taps: Int = 1, pointers: Int = 1)
        case longPress(milliseconds: Int = 500)
        case pan(minimumDistance: Double = 10)
        case swipe(SwipeDirection)
        case pinch
        case rotation
    }

    let label: String
    let kind: Kind
    /// The view it is attached to: `list`, `row`, `buy`.
    let on: String
    var requiresToFail: [String] = []
    var cancelsTouchesInView = true
    var delaysTouchesBegan = false
    var delaysTouchesEnded = true
    var declines = false
    /// The labels of the recognizers it may recognize with.
    var simultaneousWith: [String] = []

    var description: String { "\(label) on \(on)" }

    @MainActor
    func make() -> GestureRecognizer {
        let recognizer: GestureRecognizer
        switch kind {
        case .tap(let taps, let pointers):
            recognizer = TapGestureRecognizer(
                label: label, numberOfTapsRequired: taps, numberOfPointersRequired: pointers)
        case .longPress(let milliseconds):
            recognizer = LongPressGestureRecognizer(
                label: label, minimumPressDuration: .milliseconds(milliseconds))
        case .pan(let minimumDistance):
            let pan = PanGestureRecognizer(label: label)
            pan.minimumDistance = minimumDistance
            recognizer = pan
        case .swipe(let direction):
            recognizer = SwipeGestureRecognizer(label: label, direction: direction)
        case .pinch:
            recognizer = PinchGestureRecognizer(label: label)
        case .rotation:
            recognizer = RotationGestureRecognizer(label: label)
        }
        recognizer.cancelsTouchesInView = cancelsTouchesInView
        recognizer.delaysTouchesBegan = delaysTouchesBegan
        recognizer.delaysTouchesEnded = delaysTouchesEnded
        return recognizer
    }
}

/// One step of input.
enum GestureStep: Sendable, CustomStringConvertible {
    case down(Double, Double, pointer: Int = 0)
    case move(Double, Double, pointer: Int = 0)
    case up(Double, Double, pointer: Int = 0)
    case cancel(pointer: Int = 0)
    /// Advances the manual clock (the application's system's).
    case wait(milliseconds: Int)
    case detachWindow
    case remove(String)

    var description: String {
        switch self {
        case .down(let x, let y, let pointer): "down \(pointer) (\(x), \(y))"
        case .move(let x, let y, let pointer): "move \(pointer) (\(x), \(y))"
        case .up(let x, let y, let pointer): "up \(pointer) (\(x), \(y))"
        case .cancel(let pointer): "cancel \(pointer)"
        case .wait(let milliseconds): "wait \(milliseconds) ms"
        case .detachWindow: "detach window"
        case .remove(let label): "remove \(label)"
        }
    }
}

/// The chain event every recognizer of a scene sends on each state change.
struct GestureFired: Event {
    let label: String
    let state: GestureRecognizer.State
}

/// Records each attempt's end per recognizer, and answers for simultaneous recognition and
/// `shouldBegin` as the specs say.
@MainActor
final class GestureJournal: GestureRecognizerDelegate {
    private(set) var attempts: [String: [GestureAttempt]] = [:]
    var pairs: Set<[String]> = []
    var declining: Set<String> = []
    /// Runs inside `shouldBegin`, before it answers: a delegate that tears something down.
    var whileAskedToBegin: ((GestureRecognizer) -> Void)?

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        whileAskedToBegin?(recognizer)
        return !declining.contains(recognizer.label)
    }

    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        pairs.contains([recognizer.label, other.label].sorted())
    }

    /// Runs once an attempt's end is recorded: a delegate that tears something down.
    var whenEnded: ((GestureRecognizer, GestureAttempt) -> Void)?

    func gestureRecognizer(_ recognizer: GestureRecognizer, didEnd attempt: GestureAttempt) {
        attempts[recognizer.label, default: []].append(attempt)
        whenEnded?(recognizer, attempt)
    }

    /// Each recognizer's attempts, as `state (reason)`.
    var summary: [String: [String]] { attempts.mapValues { $0.map(\.description) } }
}

/// A list (0, 0, 400, 400) holding a row (0, 100, 400, 100) holding a Buy button
/// (300, 20, 80, 60 in the row: 300…380 × 120…180 in the window), the application's system on
/// a manual clock; the root
/// controller handles `AddToCart` and `GestureFired`, noting them in ``fired``.
@MainActor
final class GestureScene {
    let scene: UIFixtures.Scene
    /// The clock of the application's system: the gestures' time and timers.
    let clock = ManualClock()
    let journal = GestureJournal()
    let list = UIFixtures.RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "list")
    let row = UIFixtures.RecordingView(frame: Rect(x: 0, y: 100, width: 400, height: 100), label: "row")
    let buy = Button(frame: Rect(x: 300, y: 20, width: 80, height: 60), title: "buy")
    private(set) var recognizers: [String: GestureRecognizer] = [:]
    /// The chain events the controller got, in order: `buy tap`, `pan began`…
    private(set) var fired: [String] = []

    /// ``fired`` by sender (`buy`, or the recognizer's label): each sender's own order.
    var firedBySender: [String: [String]] {
        Dictionary(grouping: fired) { String($0.prefix { $0 != " " }) }
    }
    /// What the button was told of its sequences: each phase and pointer, a cancellation with
    /// its reason.
    private(set) var buyTold: [String] = []

    var window: Window { scene.window }

    /// The scene with the recognizers `specs` describes; `runsCapturePhase` is the application
    /// system's.
    init(_ specs: [GestureSpec] = [], runsCapturePhase: Bool = false) throws {
        scene = UIFixtures.Scene(runsCapturePhase: runsCapturePhase, clock: clock)
        scene.add(list)
        list.addSubview(row)
        row.addSubview(buy)
        buy.addChainEvent(for: .tap) { _ in UIFixtures.AddToCart(sku: "buy") }
        scene.controller.strategies.on(UIFixtures.AddToCart.self) { [unowned self] _, _, _ in
            fired.append("buy tap")
            return .handled
        }
        scene.controller.strategies.on(GestureFired.self) { [unowned self] _, event, _ in
            fired.append("\(event.label) \(event.state)")
            return .handled
        }
        buy.strategies.on(PointerEvent.self) { [unowned self] _, pointer, _ in
            let entry = "\(pointer.phase) \(pointer.pointer.rawValue)"
            buyTold.append(pointer.cancellation.map { "\(entry) (\($0))" } ?? entry)
            return .pass
        }
        for spec in specs { attach(spec) }
        for spec in specs {
            for other in spec.requiresToFail {
                try recognizers[spec.label]!.require(toFail: recognizers[other]!)
            }
            for other in spec.simultaneousWith { journal.pairs.insert([spec.label, other].sorted()) }
            if spec.declines { journal.declining.insert(spec.label) }
        }
    }

    /// Attaches the recognizer `spec` describes, reporting to the journal and sending
    /// `GestureFired`.
    @discardableResult
    func attach(_ spec: GestureSpec) -> GestureRecognizer {
        let recognizer = spec.make()
        recognizer.delegate = journal
        recognizer.addChainEvent { recognizer in
            GestureFired(label: recognizer.label, state: recognizer.state)
        }
        view(spec.on).addGestureRecognizer(recognizer)
        recognizers[spec.label] = recognizer
        return recognizer
    }

    /// Attaches `recognizer`, built by the test, to the view labelled `label`, reporting to the
    /// journal.
    func attach(_ recognizer: GestureRecognizer, to label: String) {
        recognizer.delegate = journal
        view(label).addGestureRecognizer(recognizer)
    }

    func view(_ label: String) -> View {
        switch label {
        case "list": list
        case "row": row
        case "buy": buy
        default: preconditionFailure("no view labelled \(label)")
        }
    }

    /// Plays `steps`, then waits for every chain event they caused.
    func play(_ steps: [GestureStep]) async {
        for step in steps {
            switch step {
            case .down(let x, let y, let pointer):
                await window.dispatch(.began, at: Point(x: x, y: y), pointer: PointerID(pointer))
            case .move(let x, let y, let pointer):
                await window.dispatch(.moved, at: Point(x: x, y: y), pointer: PointerID(pointer))
            case .up(let x, let y, let pointer):
                await window.dispatch(.ended, at: Point(x: x, y: y), pointer: PointerID(pointer))
            case .cancel(let pointer):
                await window.dispatch(.cancelled, at: .zero, pointer: PointerID(pointer))
            case .wait(let milliseconds):
                await clock.advance(by: .milliseconds(milliseconds))
            case .detachWindow:
                scene.app.removeWindow(window)
            case .remove(let label):
                view(label).removeFromSuperview()
            }
            await window.gestureEventsSent()
        }
    }

    /// What the recording views were told, by label (views told nothing left out): each phase
    /// and pointer, a cancellation with its reason (`cancelled 0 (gestureRecognized(by: pan))`).
    var told: [String: [String]] {
        var told: [String: [String]] = [:]
        for view in [list, row] where !view.log.isEmpty {
            var reasons = view.cancellations.makeIterator()
            told[view.label] = view.log.map { entry in
                guard entry.hasPrefix("cancelled"), let reason = reasons.next() else { return entry }
                return "\(entry) (\(reason))"
            }
        }
        return told
    }

    /// Whether every recognizer is back to `possible`, out of any attempt, with no timer left.
    var isQuiet: Bool {
        clock.pendingTimerCount == 0
            && recognizers.values.allSatisfy { $0.state == .possible && $0.numberOfPointers == 0 }
            && window.activePointers.isEmpty
    }
}
