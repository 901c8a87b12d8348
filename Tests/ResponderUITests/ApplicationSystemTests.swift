import ResponderChain
import ResponderChainTesting
import ResponderUI
import Testing

/// The event system a send uses, read as the routing reads it.
private func system(of responder: any Responder) async -> EventSystem {
    await responder.eventSystem
}

@MainActor
@Suite("Views follow their application's event system")
struct ApplicationSystemTests {
    @Test("a view's own send, with no options, is traced and dead-lettered by its application's system")
    func viewsUseTheApplicationsSystem() async throws {
        let letters = DeadLetterRecorder()
        let scene = UIFixtures.Scene(withDelegate: false, deadLetters: letters.sink)
        let leaf = scene.add(View(label: "leaf"))

        let outcome = await leaf.send(UIFixtures.Ping())

        #expect(outcome.kind == .unhandled)
        #expect(scene.recorder.labels == ["leaf", "rootView", "controller", "window", "app"])
        #expect(letters.outcomes.map(\.kind) == [.unhandled])
        #expect(await system(of: leaf) === system(of: scene.app))
        #expect(await system(of: scene.controller) === system(of: scene.app))
    }

    @Test("a view moved to another application's window follows it")
    func movedViewFollows() async throws {
        let first = UIFixtures.Scene(withDelegate: false)
        let second = UIFixtures.Scene(withDelegate: false)
        let leaf = first.add(View(label: "leaf"))
        await leaf.send(UIFixtures.Ping())

        second.controller.view.addSubview(leaf)
        await leaf.send(UIFixtures.Ping())

        #expect(first.recorder.labels == ["leaf", "rootView", "controller", "window", "app"])
        #expect(second.recorder.labels == ["leaf", "rootView", "controller", "window", "app"])
        #expect(await system(of: leaf) === system(of: second.app))
    }

    @Test("a window moved to another application follows it, and so do its views")
    func movedWindowFollows() async throws {
        let first = UIFixtures.Scene(withDelegate: false)
        let second = UIFixtures.Scene(withDelegate: false)

        second.app.addWindow(first.window)

        #expect(await system(of: first.controller.view) === system(of: second.app))
    }

    @Test(
        "a control on a detached window sends its chain event: it ends interrupted, traced and dead-lettered by its former application's system"
    )
    func detachedWindowStillAccounts() async throws {
        let letters = DeadLetterRecorder()
        let scene = UIFixtures.Scene(deadLetters: letters.sink)
        let button = Button(frame: Rect(x: 10, y: 10, width: 40, height: 40), title: "Buy")
        button.addChainEvent(for: .tap) { _ in UIFixtures.Ping() }
        scene.controller.view.addSubview(button)
        scene.app.removeWindow(scene.window)
        scene.recorder.reset()

        let delivery = try #require(await scene.window.tap(at: Point(x: 20, y: 20)))

        let triggered = try #require(delivery.triggered.first)
        #expect(triggered.outcome.kind == .interrupted)
        #expect(letters.outcomes.map(\.kind).contains(.interrupted))
        #expect(letters.letters.contains { $0.outcome.eventID == triggered.outcome.eventID })
        #expect(scene.recorder.labels.contains("Buy"))
        #expect(button.lastOutcomes.map(\.kind) == [.interrupted])
    }

    @Test("a responder in no window uses the process-wide event system")
    func looseViewUsesTheDefault() async {
        let loose = View(label: "loose")

        #expect(await system(of: loose) === EventSystem.default)
        #expect(await system(of: Application()) === EventSystem.default)
    }

    @Test("the window layer's own events go through the application's system: pointer, key and action")
    func windowLayerEvents() async throws {
        let scene = UIFixtures.Scene(withDelegate: false)
        let field = scene.add(View(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "field"))

        _ = await scene.window.tap(at: Point(x: 10, y: 10))
        let tapHops = scene.recorder.labels
        scene.recorder.reset()
        _ = await scene.window.dispatch(KeyEvent("a"))
        let keyHops = scene.recorder.labels
        scene.recorder.reset()
        _ = await scene.app.sendAction(UIFixtures.Ping(), from: field)

        #expect(tapHops.first == "field" && tapHops.contains("app"))
        #expect(keyHops == ["window", "app"])
        #expect(scene.recorder.labels == ["field", "rootView", "controller", "window", "app"])
    }
}
