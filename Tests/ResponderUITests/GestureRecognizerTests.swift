import ResponderChain
import ResponderChainTesting
import ResponderUI
import Testing

/// A recognizer that never decides anything.
@MainActor
private final class Undecided: GestureRecognizer {}

/// A recognizer that tries a transition its state diagram does not have.
@MainActor
private final class Wayward: GestureRecognizer {
    override func pointerBegan(_ pointer: PointerEvent) {
        state = .changed  // not from `possible`
        state = .ended  // not from `possible` either
    }

    override func pointerEnded(_ pointer: PointerEvent) {
        state = .recognized
    }
}

/// What the tap recognizer of the nested-tap test sends besides `GestureFired`.
private struct NestedTap: Event {}

/// The deliveries of the taps a handler made.
@MainActor
private final class NestedTaps {
    var started = false
    var deliveries: [PointerDelivery?] = []

    /// The first time only: taps `window` at `location` with `pointer`, from inside the handler
    /// that calls it, and keeps the delivery.
    func tapOnce(_ window: Window, at location: Point, pointer: PointerID = .primary) async {
        guard !started else { return }
        started = true
        deliveries.append(await window.tap(at: location, pointer: pointer))
    }
}

/// The states a recognizer sent chain events for.
@MainActor
private final class StateLog {
    var states: [GestureRecognizer.State] = []
    var phases: [String] = []
}

@MainActor
@Suite("Gesture recognizers")
struct GestureRecognizerTests {
    // Places: on the row (50, 150); on the Buy button (340, 150).

    @Test("a tap of two pointers recognizes only when both went down together", arguments: [1, 2])
    func twoPointerTap(pointers: Int) async throws {
        let scene = try GestureScene()
        let tap = scene.attach(GestureSpec(label: "tap", kind: .tap(pointers: 2), on: "row"))
        var steps: [GestureStep] = (0..<pointers).map { .down(50 + Double($0) * 20, 150, pointer: $0) }
        steps += (0..<pointers).map { .up(50 + Double($0) * 20, 150, pointer: $0) }
        await scene.play(steps)
        #expect(tap.lastAttempt?.state == (pointers == 2 ? .recognized : .failed))
        #expect(scene.isQuiet)
    }

    @Test("a tap that moves further than its allowable movement fails", arguments: [10.0, 10.5])
    func tapMovement(distance: Double) async throws {
        let scene = try GestureScene()
        let tap = scene.attach(GestureSpec(label: "tap", kind: .tap(), on: "row"))
        await scene.play([.down(50, 150), .move(50 + distance, 150), .up(50 + distance, 150)])
        #expect(tap.lastAttempt?.state == (distance <= 10 ? .recognized : .failed))
    }

    @Test(
        "every recognizer crosses its movement threshold only by going past it",
        arguments: [
            (GestureSpec.Kind.tap(), 10.0), (.longPress(), 10.0), (.pan(), 10.0), (.swipe(.right), 50.0),
        ], [0.0, 0.5])
    func movementThresholds(recognizer spec: (kind: GestureSpec.Kind, threshold: Double), past: Double)
        async throws
    {
        let (kind, threshold) = spec
        let scene = try GestureScene()
        let recognizer = scene.attach(GestureSpec(label: "gesture", kind: kind, on: "list"))
        await scene.play([.down(100, 250), .move(100 + threshold + past, 250)])
        let crossed = past > 0
        switch kind {
        case .tap, .longPress:
            // A tap and a long press fail past their allowance, and stay possible at it.
            #expect(recognizer.state == (crossed ? .failed : .possible))
        case .pan:
            #expect(recognizer.state == (crossed ? .began : .possible))
        case .swipe:
            #expect(recognizer.state == (crossed ? .recognized : .possible))
        case .pinch, .rotation:
            Issue.record("not a movement threshold of one pointer")
        }
    }

    @Test(
        "a pinch begins past its span change and reports the scale from the first span, and how fast by the clock"
    )
    func pinchScaleAndVelocity() async throws {
        let scene = try GestureScene()
        let pinch = try #require(
            scene.attach(GestureSpec(label: "pinch", kind: .pinch, on: "list")) as? PinchGestureRecognizer)
        await scene.play([.down(100, 250, pointer: 0), .down(200, 250, pointer: 1)])
        #expect(pinch.scale == 1)
        await scene.play([.wait(milliseconds: 10), .move(210, 250, pointer: 1)])
        #expect(pinch.state == .possible)  // 10 points: at the threshold, not past it
        await scene.play([.wait(milliseconds: 10), .move(220, 250, pointer: 1)])
        #expect(pinch.state == .began)
        #expect(abs(pinch.scale - 1.2) < 1e-12)
        await scene.play([.wait(milliseconds: 10), .move(240, 250, pointer: 1)])
        #expect(pinch.state == .changed)
        #expect(abs(pinch.scale - 1.4) < 1e-12)
        #expect(abs(pinch.velocity - 0.4 / 0.03) < 1e-9)  // from 1 to 1.4 in 30 ms
        // A third pointer at the centroid does not make the scale jump.
        await scene.play([.down(170, 250, pointer: 2)])
        #expect(abs(pinch.scale - 1.4) < 1e-12)
        await scene.play([.up(170, 250, pointer: 2), .up(240, 250, pointer: 1)])
        #expect(pinch.lastAttempt == GestureAttempt(state: .ended, reason: .completed))
        await scene.play([.up(100, 250, pointer: 0)])
        #expect(scene.isQuiet)
    }

    @Test("a rotation begins past its angle and reports the angle turned since its pointers went down")
    func rotationAngle() async throws {
        let scene = try GestureScene()
        let rotation = try #require(
            scene.attach(GestureSpec(label: "rotation", kind: .rotation, on: "list"))
                as? RotationGestureRecognizer)
        await scene.play([.down(100, 250, pointer: 0), .down(200, 250, pointer: 1)])
        await scene.play([.move(200, 255, pointer: 1)])  // atan(0.05) ≈ 2.9°: short of 5°
        #expect(rotation.state == .possible)
        await scene.play([.move(200, 260, pointer: 1)])  // atan(0.1) ≈ 5.7°
        #expect(rotation.state == .began)
        await scene.play([
            .move(100, 350, pointer: 1), .move(0, 250, pointer: 1), .move(100, 150, pointer: 1),
        ])
        #expect(abs(rotation.rotation - 3 * Double.pi / 2) < 1e-12)  // three quarter turns, clockwise on screen
        await scene.play([.up(100, 150, pointer: 1)])
        #expect(rotation.lastAttempt == GestureAttempt(state: .ended, reason: .completed))
        await scene.play([.up(100, 250, pointer: 0)])
        #expect(scene.isQuiet)
    }

    @Test("a pinch, a rotation and a pan on one view recognize together by default, and defeat a tap")
    func transformGesturesTogether() async throws {
        let scene = try GestureScene([
            GestureSpec(label: "tap", kind: .tap(pointers: 2), on: "list"),
            GestureSpec(label: "pinch", kind: .pinch, on: "list"),
            GestureSpec(label: "rotation", kind: .rotation, on: "list"),
            GestureSpec(label: "pan", kind: .pan(), on: "list"),
        ])
        await scene.play([
            .down(100, 250, pointer: 0), .down(200, 250, pointer: 1), .move(240, 280, pointer: 1),
            .up(240, 280, pointer: 1), .up(100, 250, pointer: 0),
        ])
        #expect(scene.journal.summary["pinch"] == ["ended (completed)"])
        #expect(scene.journal.summary["rotation"] == ["ended (completed)"])
        #expect(scene.journal.summary["pan"] == ["ended (completed)"])
        #expect(scene.journal.attempts["tap"]?.map(\.state) == [.failed])
        #expect(scene.isQuiet)
    }

    @Test("a long press begins exactly at its minimum duration on the injected clock, and not before")
    func longPressDuration() async throws {
        let scene = try GestureScene()
        let press = scene.attach(GestureSpec(label: "press", kind: .longPress(milliseconds: 500), on: "row"))
        await scene.play([.down(50, 150), .wait(milliseconds: 499)])
        #expect(press.state == .possible)
        await scene.play([.wait(milliseconds: 1)])
        #expect(press.state == .began)
        #expect(scene.fired == ["press began"])
        #expect(press.lastOutcomes.map(\.kind) == [.handled])
        await scene.play([.up(50, 150)])
        #expect(press.lastAttempt == GestureAttempt(state: .ended, reason: .completed))
    }

    @Test("a pan reports how far its pointers went, and how fast by the clock")
    func panTranslationAndVelocity() async throws {
        let scene = try GestureScene()
        let pan = try #require(
            scene.attach(GestureSpec(label: "pan", kind: .pan(), on: "row")) as? PanGestureRecognizer)
        await scene.play([.down(50, 150), .wait(milliseconds: 10), .move(61, 150)])
        #expect(pan.state == .began)
        #expect(pan.translation == Point(x: 11, y: 0))
        await scene.play([.wait(milliseconds: 10), .move(80, 150)])
        #expect(pan.translation == Point(x: 30, y: 0))
        #expect(pan.velocity == Point(x: 1500, y: 0))  // 30 points in 20 ms
        pan.setTranslation(.zero)
        await scene.play([.wait(milliseconds: 10), .move(80, 160)])
        #expect(pan.translation == Point(x: 0, y: 10))
    }

    @Test("a pointer that joins or leaves a pan does not make its translation jump")
    func panPointersComeAndGo() async throws {
        let scene = try GestureScene()
        let pan = try #require(
            scene.attach(GestureSpec(label: "pan", kind: .pan(), on: "row")) as? PanGestureRecognizer)
        await scene.play([.down(50, 150), .move(50, 170)])
        #expect(pan.translation == Point(x: 0, y: 20))
        await scene.play([.down(150, 110, pointer: 1)])
        #expect(pan.numberOfPointers == 2)
        #expect(pan.translation == Point(x: 0, y: 20))
        await scene.play([.move(150, 120, pointer: 1)])  // the centroid moves 5 points down
        #expect(pan.translation == Point(x: 0, y: 25))
        await scene.play([.up(50, 170)])
        #expect(pan.translation == Point(x: 0, y: 25))
        #expect(pan.state == .changed)
        await scene.play([.up(150, 120, pointer: 1)])
        #expect(pan.lastAttempt == GestureAttempt(state: .ended, reason: .completed))
    }

    @Test(
        "a swipe recognizes the way it went among those it allows",
        arguments: [
            (Point(x: 60, y: 0), SwipeDirection.right), (Point(x: -60, y: 5), .left),
            (Point(x: 5, y: -60), .up), (Point(x: 0, y: 60), .down),
        ])
    func swipeDirections(offset: Point, expected: SwipeDirection) async throws {
        let scene = try GestureScene()
        let swipe = try #require(
            scene.attach(GestureSpec(label: "swipe", kind: .swipe([.left, .right, .up, .down]), on: "list"))
                as? SwipeGestureRecognizer)
        await scene.play([.down(200, 250), .move(200 + offset.x, 250 + offset.y)])
        #expect(swipe.state == .recognized)
        #expect(swipe.recognizedDirection == expected)
    }

    @Test("a requirement on itself or in a cycle is refused, typed, and changes nothing")
    func requirementErrors() throws {
        let single = TapGestureRecognizer(label: "single")
        let double = TapGestureRecognizer(label: "double", numberOfTapsRequired: 2)
        let triple = TapGestureRecognizer(label: "triple", numberOfTapsRequired: 3)
        #expect(throws: GestureRequirementError.requiresItself) { try single.require(toFail: single) }
        try single.require(toFail: double)
        try double.require(toFail: triple)
        #expect(throws: GestureRequirementError.cycle) { try triple.require(toFail: single) }
        #expect(throws: GestureRequirementError.cycle) { try double.require(toFail: single) }
        try triple.require(toFail: TapGestureRecognizer())
    }

    @Test(
        "removing or disabling a recognizer mid-gesture ends its attempt once: cancelled if it began, failed if not",
        arguments: [(true, true), (true, false), (false, true), (false, false)])
    func leavingMidGesture(removed: Bool, began: Bool) async throws {
        let scene = try GestureScene()
        let pan = scene.attach(GestureSpec(label: "pan", kind: .pan(), on: "row"))
        await scene.play(began ? [.down(50, 150), .move(50, 170)] : [.down(50, 150)])
        if removed { scene.row.removeGestureRecognizer(pan) } else { pan.isEnabled = false }
        await scene.play([.move(50, 190), .up(50, 190)])
        #expect(scene.journal.summary == ["pan": ["\(began ? "cancelled" : "failed") (removed)"]])
        #expect(scene.fired == (began ? ["pan began", "pan cancelled"] : []))
        #expect(pan.state == .possible)
        #expect(pan.view === (removed ? nil : scene.row))
    }

    @Test("a recognizer's chain events are ordinary sends: traced, captured, and reported with their outcome")
    func chainEventsAreSends() async throws {
        let scene = try GestureScene(runsCapturePhase: true)
        let pan = scene.attach(
            GestureSpec(label: "pan", kind: .pan(), on: "row", cancelsTouchesInView: false))
        var captured: [GestureRecognizer.State] = []
        scene.list.strategies.on(GestureFired.self, phase: .capture) { _, event, _ in
            captured.append(event.state)
            return .pass
        }
        await scene.play([.down(50, 150)])
        scene.scene.recorder.reset()
        let delivery = try #require(await scene.window.dispatch(.moved, at: Point(x: 50, y: 170)))
        let sent = try #require(delivery.triggered.first)
        #expect(delivery.triggered.count == 1)
        #expect(sent.recognizer === pan)
        #expect(sent.sender === scene.row)
        #expect("\(sent.source)" == "pan began")
        #expect(sent.outcome.isHandled)
        #expect(sent.control == nil)
        #expect(captured == [.began])
        // Traced like any send, the capture hop at the list included: first the chain event, from
        // the row to the controller that handles it (recognizers before views), then the moved.
        #expect(scene.scene.recorder.finished.count == 2)
        #expect(
            scene.scene.recorder.labels == [
                "list", "row", "list", "rootView", "controller",
                "list", "row", "list", "rootView", "controller", "window", "app", "AppDelegate",
            ])
    }

    @Test("a sequence a recognizer claimed belongs to no view: taking it over is refused, typed")
    func claimedSequenceCannotBeTakenOver() async throws {
        let scene = try GestureScene([GestureSpec(label: "pan", kind: .pan(), on: "row")])
        await scene.play([.down(50, 150), .move(50, 170)])
        #expect(scene.window.boundView(for: .primary) === scene.row)
        #expect(throws: PointerTakeOverError.claimedByGesture) { try scene.list.takeOver(.primary) }
        await scene.play([.up(50, 170)])
        #expect(scene.isQuiet)
    }

    @Test(
        "a view that takes a sequence over ends at once the attempts of the recognizers strictly below it, with the reason; its own and those above go on"
    )
    func takeOverEndsRecognizersBelow() async throws {
        let scene = try GestureScene([
            GestureSpec(label: "rowPress", kind: .longPress(), on: "row"),
            GestureSpec(label: "buyPress", kind: .longPress(), on: "buy"),
            GestureSpec(label: "listPress", kind: .longPress(), on: "list"),
        ])
        await scene.play([.down(340, 150), .wait(milliseconds: 100)])
        #expect(scene.window.boundView(for: .primary) === scene.buy)
        try scene.row.takeOver(.primary)
        #expect(
            scene.recognizers["buyPress"]?.lastAttempt
                == GestureAttempt(state: .failed, reason: .inputCancelled(.takenOver)))
        #expect(scene.recognizers["rowPress"]?.state == .possible)
        #expect(scene.recognizers["listPress"]?.state == .possible)
        await scene.play([.wait(milliseconds: 400)])
        #expect(scene.recognizers["rowPress"]?.state == .began)
        await scene.play([.up(340, 150)])
        #expect(
            scene.recognizers["rowPress"]?.lastAttempt == GestureAttempt(state: .ended, reason: .completed))
        #expect(scene.isQuiet)
    }

    /// What a delegate tears down while it is asked whether a recognizer may begin.
    enum Teardown: String, CaseIterable, Sendable {
        case removesTheView, removesTheRecognizer, disablesTheRecognizer, detachesTheWindow
    }

    @Test(
        "a delegate that tears down the recognizer, its view or its window while asked to begin ends the attempt once, and nothing begins",
        arguments: Teardown.allCases)
    func teardownWhileAskedToBegin(teardown: Teardown) async throws {
        let scene = try GestureScene([GestureSpec(label: "pan", kind: .pan(), on: "row")])
        let pan = try #require(scene.recognizers["pan"])
        scene.journal.whileAskedToBegin = { recognizer in
            switch teardown {
            case .removesTheView: scene.row.removeFromSuperview()
            case .removesTheRecognizer: recognizer.view?.removeGestureRecognizer(recognizer)
            case .disablesTheRecognizer: recognizer.isEnabled = false
            case .detachesTheWindow: scene.scene.app.removeWindow(scene.window)
            }
        }
        await scene.play([.down(50, 150), .move(50, 170)])
        let attempts = scene.journal.attempts["pan"] ?? []
        #expect(attempts.count == 1, "\(attempts)")
        #expect(attempts.first?.state == .failed)
        #expect(scene.fired.isEmpty)
        #expect(pan.state != .began)
    }

    @Test(
        "a defeated competitor whose end removes the winner's view: the winner's chain events keep their transition order, began then cancelled"
    )
    func defeatedCompetitorRemovesWinnersView() async throws {
        let scene = try GestureScene([
            GestureSpec(label: "pan", kind: .pan(), on: "row"),
            GestureSpec(label: "press", kind: .longPress(), on: "row"),
        ])
        scene.journal.whenEnded = { recognizer, _ in
            if recognizer.label == "press" { scene.row.removeFromSuperview() }
        }
        // The states the pan sends chain events for, in the order it sends them (the row has
        // left the window: they reach nobody above it).
        let sent = StateLog()
        try #require(scene.recognizers["pan"]).addChainEvent { pan -> GestureFired? in
            sent.states.append(pan.state)
            return nil
        }
        await scene.play([.down(50, 150), .move(50, 170)])
        #expect(sent.states == [.began, .cancelled])
        #expect(scene.journal.summary["pan"] == ["cancelled (input cancelled (viewLeftWindow))"])
        #expect(scene.journal.summary["press"] == ["failed (defeated by pan)"])
    }

    @Test(
        "a handler of a tap's chain event that taps the same window again gets its own tap back, recognized, and both taps end",
        .timeLimit(.minutes(1)))
    func tapFromInsideATapsHandler() async throws {
        // The row keeps its sequences (the tap does not cancel touches): each tap returns the
        // delivery of its own `ended`.
        let scene = try GestureScene([
            GestureSpec(label: "tap", kind: .tap(), on: "row", cancelsTouchesInView: false)
        ])
        let nested = NestedTaps()
        scene.scene.controller.strategies.on(NestedTap.self) { _, _, _ in
            await nested.tapOnce(scene.window, at: Point(x: 60, y: 150))
            return .handled
        }
        try #require(scene.recognizers["tap"]).addChainEvent { _ in NestedTap() }
        let outer = await scene.window.tap(at: Point(x: 50, y: 150))
        #expect(outer?.event.location == Point(x: 50, y: 150))
        #expect(nested.deliveries.count == 1)
        #expect(nested.deliveries.first??.event.location == Point(x: 60, y: 150))
        #expect(scene.fired == ["tap recognized", "tap recognized"])
        #expect(scene.journal.summary["tap"] == ["recognized (completed)", "recognized (completed)"])
        #expect(scene.isQuiet)
    }

    @Test(
        "a handler of a phase released after a delay that taps the same window gets its own tap back, and the released phases end in order",
        .timeLimit(.minutes(1)))
    func tapFromInsideAReleasedPhase() async throws {
        // The pan holds the row's `began` back; it fails at the up, so the window's lane sends
        // the held `began`, then the `ended`. The row's handler of that `began` taps the window:
        // its delivery must not wait for the lane job it runs in.
        let scene = try GestureScene([
            GestureSpec(label: "pan", kind: .pan(), on: "list", delaysTouchesBegan: true)
        ])
        let nested = NestedTaps()
        let told = StateLog()
        scene.view("row").strategies.on(PointerEvent.self) { row, pointer, _ in
            told.phases.append("\(pointer.phase) \(pointer.location.x)")
            if pointer.phase == .began {
                await nested.tapOnce(scene.window, at: Point(x: 60, y: 150), pointer: PointerID(2))
            }
            return .handled
        }

        await scene.play([.down(50, 150), .up(50, 150)])

        #expect(nested.deliveries.count == 1)
        #expect(nested.deliveries.first??.event.location == Point(x: 60, y: 150))
        // The outer sequence's phases in order, the nested tap's inside its `began`.
        #expect(told.phases == ["began 50.0", "began 60.0", "ended 60.0", "ended 50.0"])
        #expect(scene.window.activePointers.isEmpty)
        #expect(scene.isQuiet)
    }

    @Test("a recognizer that decides nothing fails once its pointers are up and it waits for nothing")
    func undecidedRecognizerFails() async throws {
        let scene = try GestureScene()
        let undecided = Undecided(label: "undecided")
        scene.attach(undecided, to: "row")
        await scene.play([.down(50, 150), .move(50, 170)])
        #expect(undecided.state == .possible)
        #expect(scene.journal.summary.isEmpty)
        await scene.play([.up(50, 170)])
        #expect(scene.journal.summary == ["undecided": ["failed (not recognized)"]])
        #expect(scene.told["row"] == ["began 0", "moved 0", "ended 0"])
    }

    @Test("a transition the state diagram does not have is ignored")
    func invalidTransitionsIgnored() async throws {
        let scene = try GestureScene()
        let wayward = Wayward(label: "wayward")
        scene.attach(wayward, to: "row")
        await scene.play([.down(50, 150)])
        #expect(wayward.state == .possible)
        await scene.play([.up(50, 150)])
        #expect(scene.journal.summary == ["wayward": ["recognized (completed)"]])
    }

    @Test("a recognizer whose window went away mid-gesture starts afresh in the next window")
    func windowGoneMidGesture() async throws {
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "card")
        let pan = PanGestureRecognizer(label: "pan")
        view.addGestureRecognizer(pan)
        /// A window holding `view`, where a pointer went down and moved `by`.
        func drag(by distance: Double) async -> Window {
            let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            window.addSubview(view)
            await window.dispatch(.began, at: Point(x: 10, y: 10))
            await window.dispatch(.moved, at: Point(x: 10, y: 10 + distance))
            return window
        }
        do {
            _ = await drag(by: 30)
            #expect(pan.state == .began)
        }  // the window is freed with the sequence still under way: nobody ends the attempt
        #expect(view.superview == nil)
        let next = await drag(by: 20)
        #expect(pan.state == .began)
        #expect(pan.numberOfPointers == 1)
        #expect(pan.translation == Point(x: 0, y: 20))
        await next.dispatch(.ended, at: Point(x: 10, y: 30))
        #expect(pan.lastAttempt == GestureAttempt(state: .ended, reason: .completed))
    }

    @Test(
        "gesture timers run on the system's manual clock in deadline order, each once, never after their attempt, and advance waits for their chain events"
    )
    func timersOnManualClock() async throws {
        let scene = try GestureScene()
        let timed = Timed(label: "timed")
        scene.attach(timed, to: "row")
        timed.addChainEvent { GestureFired(label: $0.label, state: $0.state) }
        scene.row.strategies.on(GestureFired.self) { _, _, _ in
            for _ in 0..<10 { await Task.yield() }  // the chain event takes a while up the chain
            return .pass
        }
        await scene.play([.down(50, 150)])
        #expect(
            scene.clock.pendingTimers.map(\.purpose)
                == [20, 20, 30, 40, 50].map {
                    "a timer of gesture recognizer timed (Timed), set at 0.0 seconds for \(Duration.milliseconds($0))"
                })
        await scene.clock.advance(by: .milliseconds(19))
        #expect(timed.fired.isEmpty)
        await scene.clock.advance(by: .milliseconds(11))
        #expect(timed.fired == ["20", "20, second", "25, scheduled at 20", "30 at 0.03 seconds"])
        await scene.clock.advance(by: .milliseconds(10))
        // The recognition's chain event has ended when the advance that fired it returns.
        #expect(scene.fired == ["timed recognized"])
        #expect(timed.lastOutcomes.map(\.kind) == [.handled])
        #expect(scene.clock.pendingTimerCount == 0)  // the attempt ended: its 50 ms timer went
        await scene.clock.advance(by: .seconds(1))
        #expect(timed.fired.count == 5)
        await scene.play([.up(50, 150)])
        #expect(scene.isQuiet)
    }

    @Test("on a system's real clock a long press begins in real time, its timer's call on the main actor")
    func timerOnRealClock() async throws {
        let scene = UIFixtures.Scene()  // EventSystem() runs on ContinuousClock
        let row = scene.add(View(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "row"))
        let press = LongPressGestureRecognizer(label: "press", minimumPressDuration: .milliseconds(1))
        press.addChainEvent { $0.state == .began ? UIFixtures.Ping(tag: "press began") : nil }
        row.addGestureRecognizer(press)
        let began = Gate()
        began.open()
        scene.controller.strategies.on(UIFixtures.Ping.self) { _, _, _ in
            try await began.pass()
            return .handled
        }
        await scene.window.dispatch(.began, at: Point(x: 10, y: 10))
        try await began.waitForArrivals(1)  // the timer fired, and the chain event was sent
        #expect(press.state == .began)
        await scene.window.dispatch(.ended, at: Point(x: 10, y: 10))
        #expect(press.lastAttempt == GestureAttempt(state: .ended, reason: .completed))
    }
}

/// A recognizer that sets five timers when its pointer goes down, out of deadline order (one of
/// them sets another when it fires), and recognizes at the fourth.
@MainActor
private final class Timed: GestureRecognizer {
    /// What each timer's call noted, in the order they ran.
    private(set) var fired: [String] = []

    override func pointerBegan(_ pointer: PointerEvent) {
        schedule(after: .milliseconds(30)) { [unowned self] in fired.append("30 at \(now)") }
        schedule(after: .milliseconds(20)) { [unowned self] in
            fired.append("20")
            schedule(after: .milliseconds(5)) { [unowned self] in fired.append("25, scheduled at 20") }
        }
        schedule(after: .milliseconds(20)) { [unowned self] in fired.append("20, second") }
        schedule(after: .milliseconds(40)) { [unowned self] in
            fired.append("40")
            state = .recognized
        }
        schedule(after: .milliseconds(50)) { [unowned self] in fired.append("50, after the attempt") }
    }
}
