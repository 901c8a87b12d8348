import ResponderChainTesting
import ResponderUI
import Testing

private typealias Ping = UIFixtures.Ping

@Suite("Detaching while events are in flight", .timeLimit(.minutes(1)))
@MainActor
struct DetachingTests {
    /// Sends a ping from `view` with `scene`'s options, runs `change` while the view's handler is
    /// parked in it, then lets the send go on and returns its outcome.
    private func send(
        from view: View, in scene: UIFixtures.Scene, whileParked change: () -> Void
    ) async throws -> Outcome {
        let gate = Gate()
        view.strategies.on(Ping.self) { _, _, _ in
            try await gate.pass()
            return .pass
        }
        let options = scene.options
        let sending = Task { @MainActor in await view.send(Ping(), options: options) }
        try await gate.waitForArrivals(1)

        change()
        gate.open()
        return await sending.value
    }

    @Test("an event in flight when its window is detached ends interrupted at the window")
    func windowDetached() async throws {
        let scene = UIFixtures.Scene()
        let leaf = scene.add(View(label: "leaf"))

        let outcome = try await send(from: leaf, in: scene) { scene.app.removeWindow(scene.window) }

        let interruption = try #require(outcome.interruptedDetails)
        #expect(interruption.lastReached == ResponderID(scene.window))
        #expect(scene.recorder.labels == ["leaf", "rootView", "controller", "window"])
        #expect(await scene.delegate.seen.isEmpty)
    }

    @Test("an event in flight when its view leaves the window ends interrupted at the removed subtree's root")
    func viewRemoved() async throws {
        let scene = UIFixtures.Scene()
        let cell = View(label: "cell")
        let leaf = View(label: "leaf")
        scene.controller.view.addSubview(cell)
        cell.addSubview(leaf)

        let outcome = try await send(from: leaf, in: scene) { cell.removeFromSuperview() }

        let interruption = try #require(outcome.interruptedDetails)
        #expect(interruption.lastReached == ResponderID(cell))
        #expect(interruption.hops == 2)
    }

    @Test(
        "a pointer began in flight when the window is detached is withdrawn: it ends cancelled at the window, not dead-lettered"
    )
    func pointerInFlight() async throws {
        let (letters, app, window, target) = windowWithDeadLetters()
        let gate = target.parkPointerEvents(.began)
        let dispatching = try await window.dispatch(.began, at: Point(x: 10, y: 10), parkingAt: gate)

        app.removeWindow(window)
        gate.open()
        let delivery = await dispatching.value

        // The window withdrew it when it cancelled its sequence, before telling the target: it
        // stops where the hop ends, at the window, instead of ending interrupted there.
        let stop = try #require(
            delivery?.outcome.cancelledDetails, "\(String(describing: delivery?.outcome))")
        #expect(stop.reason == .withdrawn)
        #expect(stop.responder == ResponderID(window))
        #expect(delivery.map { ResponderID($0.target) } == ResponderID(target))
        #expect(target.log == ["cancelled 0"])
        #expect(target.cancellations == [.windowDetached])
        // The only dead letter is the cancellation's: nobody handled it, and it ended interrupted
        // at the detached window, like any event that finds the chain cut there.
        try await waitUntil("the cancellation's letter") { await letters.kinds.count == 1 }
        #expect(await letters.kinds == [.interrupted])
        #expect(await letters.events == ["PointerEvent.cancelled"])
    }

    @Test(
        "a pointer ended in flight when the window is detached is not withdrawn: it ends interrupted at the window and is dead-lettered"
    )
    func pointerEndedInFlight() async throws {
        let (letters, app, window, target) = windowWithDeadLetters()
        let gate = target.parkPointerEvents(.ended)
        try #require(await window.dispatch(.began, at: Point(x: 10, y: 10)) != nil)
        let dispatching = try await window.dispatch(.ended, at: Point(x: 10, y: 10), parkingAt: gate)

        app.removeWindow(window)
        gate.open()
        let delivery = await dispatching.value

        // The ended had already ended the sequence: nothing is cancelled, and the end arrives.
        #expect(delivery?.outcome.kind == .interrupted)
        #expect(target.log == ["began 0", "ended 0"])
        #expect(target.cancellations.isEmpty)
        // The began ended unhandled at the application (the root); the ended, interrupted.
        #expect(await letters.kinds == [.unhandled, .interrupted])
    }

    @Test("a dismissed presented controller breaks the chain of events in flight under it")
    func dismissedInFlight() async throws {
        let scene = UIFixtures.Scene()
        let sheet = ViewController(view: View(label: "sheetView"), label: "sheet")
        scene.controller.present(sheet)

        let outcome = try await send(from: sheet.view, in: scene) { sheet.dismiss() }

        let interruption = try #require(outcome.interruptedDetails)
        #expect(interruption.lastReached == ResponderID(sheet))
    }
}

/// An application (without a delegate) whose system's dead letters are recorded in `letters`,
/// with one attached window, 0…100 × 0…100, holding `target`, 0…50 × 0…50.
@MainActor
private func windowWithDeadLetters() -> (
    letters: LetterBox, app: Application, window: Window, target: UIFixtures.RecordingView
) {
    let letters = LetterBox()
    let app = Application(
        system: EventSystem(
            deadLetters: DeadLetter.Sink { letter in await letters.add(letter) }))
    let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "window")
    let target = UIFixtures.RecordingView(frame: Rect(x: 0, y: 0, width: 50, height: 50), label: "target")
    window.addSubview(target)
    app.addWindow(window)
    return (letters, app, window, target)
}

private actor LetterBox {
    private(set) var kinds: [Outcome.Kind] = []
    /// The letters' events, by trace name.
    private(set) var events: [String] = []
    func add(_ letter: DeadLetter) {
        kinds.append(letter.outcome.kind)
        events.append(letter.event.traceName)
    }
}
