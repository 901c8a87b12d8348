import ResponderChainTesting
import ResponderUI
import Testing

private typealias Ping = UIFixtures.Ping

@Suite("The chain's shape")
@MainActor
struct ChainShapeTests {
    @Test("view → superview → root view → controller → window → application → delegate")
    func baseline() async throws {
        let scene = UIFixtures.Scene()
        let cell = View(frame: Rect(x: 0, y: 0, width: 400, height: 44), label: "cell")
        let button = View(frame: Rect(x: 0, y: 0, width: 44, height: 44), label: "button")
        scene.controller.view.addSubview(cell)
        cell.addSubview(button)

        let outcome = await button.send(Ping())

        #expect(
            scene.recorder.labels == [
                "button", "cell", "rootView", "controller", "window", "app", "AppDelegate",
            ])
        let unhandled = try #require(outcome.unhandledDetails)
        #expect(unhandled.root == ResponderID(scene.delegate))
        #expect(await scene.delegate.seen == ["Ping"])
    }

    @Test("without a delegate the application is the root")
    func applicationIsRoot() async throws {
        let scene = UIFixtures.Scene(withDelegate: false)
        let outcome = await scene.controller.view.send(Ping())
        #expect(scene.recorder.labels == ["rootView", "controller", "window", "app"])
        let unhandled = try #require(outcome.unhandledDetails)
        #expect(unhandled.root == ResponderID(scene.app))
        #expect(scene.app.isRoot)
    }

    @Test("a child controller chains through the parent controller's views to the parent")
    func childControllers() async {
        let scene = UIFixtures.Scene()
        let container = View(frame: Rect(x: 0, y: 0, width: 200, height: 200), label: "container")
        let child = ViewController(view: View(label: "childView"), label: "child")
        let leaf = View(label: "leaf")
        scene.controller.view.addSubview(container)
        scene.controller.addChild(child)
        container.addSubview(child.view)
        child.view.addSubview(leaf)

        #expect(child.parent === scene.controller)
        #expect(scene.controller.children.count == 1)
        await leaf.send(Ping())
        #expect(
            scene.recorder.labels == [
                "leaf", "childView", "child", "container", "rootView", "controller", "window", "app",
                "AppDelegate",
            ])
    }

    @Test(
        "a presented controller's view goes on top of the window, filling it, and its chain goes on at its presenter"
    )
    func presentedController() async {
        let scene = UIFixtures.Scene()
        let sheet = ViewController(view: View(label: "sheetView"), label: "sheet")
        let field = View(frame: Rect(x: 0, y: 0, width: 100, height: 40), label: "field")
        sheet.view.addSubview(field)
        scene.controller.present(sheet)

        #expect(scene.controller.presentedController === sheet)
        #expect(sheet.presentingController === scene.controller)
        #expect(sheet.view.superview === scene.window)  // on the window, on top, filling it
        #expect(scene.window.subviews.last === sheet.view)
        #expect(sheet.view.frame == scene.window.bounds)
        #expect(scene.window.hitTest(Point(x: 10, y: 10)) === field)
        await field.send(Ping())
        #expect(
            scene.recorder.labels == [
                "field", "sheetView", "sheet", "controller", "window", "app", "AppDelegate",
            ])

        sheet.dismiss()
        #expect(scene.controller.presentedController == nil)
        #expect(sheet.view.superview == nil)
        #expect(scene.window.hitTest(Point(x: 10, y: 10)) === scene.controller.view)
    }

    @Test("presenting is refused when it would make the chain loop or present twice")
    func presentationGuards() {
        let scene = UIFixtures.Scene()
        let sheet = ViewController(view: View(label: "sheetView"), label: "sheet")
        let other = ViewController(view: View(label: "otherView"), label: "other")
        scene.controller.present(sheet)

        sheet.present(scene.controller)  // the presenter over its own presented controller
        scene.controller.present(scene.controller)
        scene.controller.present(other)  // it already presents one
        let loose = ViewController(label: "loose")
        loose.present(other)  // not in a window

        #expect(scene.controller.presentingController == nil)
        #expect(scene.controller.presentedController === sheet)
        #expect(sheet.presentedController == nil)
        #expect(other.presentingController == nil)
        #expect(other.view.superview == nil)
    }

    @Test("replacing the root controller takes the old one's view out of the window, behind any popup")
    func replacingRootController() async throws {
        let scene = UIFixtures.Scene()
        let popup = View(frame: Rect(x: 0, y: 0, width: 50, height: 50), label: "popup")
        scene.window.addSubview(popup)
        let old = scene.controller
        let replacement = ViewController(view: View(label: "newRootView"), label: "replacement")

        scene.window.rootController = replacement

        #expect(old.view.superview == nil)
        #expect(old.window == nil)
        #expect(scene.window.subviews.map(\.label) == ["newRootView", "popup"])
        #expect(replacement.view.frame == scene.window.bounds)
        #expect(scene.window.hitTest(Point(x: 200, y: 200)) === replacement.view)
        let outcome = await old.view.send(Ping())
        let interruption = try #require(outcome.interruptedDetails)
        #expect(interruption.lastReached == ResponderID(old))
    }

    @Test("a view added straight to the window skips every controller")
    func viewOnWindow() async {
        let scene = UIFixtures.Scene()
        let popup = View(frame: Rect(x: 50, y: 50, width: 100, height: 100), label: "popup")
        let ok = View(frame: Rect(x: 10, y: 10, width: 40, height: 20), label: "ok")
        scene.window.addSubview(popup)
        popup.addSubview(ok)

        let delivery = await scene.window.tap(at: Point(x: 65, y: 65))
        #expect(delivery?.target === ok)
        #expect(scene.recorder.labels.suffix(5) == ["ok", "popup", "window", "app", "AppDelegate"])
        #expect(!scene.recorder.labels.contains("controller"))
    }

    @Test("links are live: a view moved to another superview chains through its new one")
    func liveLinks() async {
        let scene = UIFixtures.Scene()
        let first = View(label: "first")
        let second = View(label: "second")
        let leaf = View(label: "leaf")
        scene.controller.view.addSubview(first)
        scene.controller.view.addSubview(second)
        first.addSubview(leaf)
        await leaf.send(Ping())
        #expect(scene.recorder.labels.prefix(2) == ["leaf", "first"])
        scene.recorder.reset()
        second.addSubview(leaf)
        await leaf.send(Ping())
        #expect(scene.recorder.labels.prefix(2) == ["leaf", "second"])
        #expect(first.subviews.isEmpty)
    }

    @Test("a handler on a view stops the event there; handled-and-continue decorates for the hops above")
    func handlersAndDecoration() async throws {
        enum Row: InfoKey { typealias Value = Int }
        let scene = UIFixtures.Scene()
        let cell = View(label: "cell")
        let button = View(label: "button")
        scene.controller.view.addSubview(cell)
        cell.addSubview(button)
        cell.strategies.on(Ping.self) { cell, ping, context in
            context.info[Row.self] = 7
            return .handledAndContinue
        }
        scene.controller.strategies.on(Ping.self) { controller, ping, context in
            #expect(context.info[Row.self] == 7)
            return .handled
        }

        let outcome = await button.send(Ping())

        let handled = try #require(outcome.handledDetails)
        #expect(handled.handlers == [ResponderID(cell), ResponderID(scene.controller)])
        #expect(handled.stoppedAt == ResponderID(scene.controller))
        #expect(handled.info[Row.self] == 7)
        #expect(scene.recorder.labels == ["button", "cell", "rootView", "controller"])
        #expect(cell.strategies.handles(Ping.self))
        cell.strategies.remove(Ping.self)
        #expect(!cell.strategies.handles(Ping.self))
    }

    @Test(
        "hops between main-actor responders run back to back: the main actor never runs other work between them, with or without a deadline",
        arguments: [false, true])
    func noBounceBetweenMainActorHops(withDeadline: Bool) async {
        let scene = UIFixtures.Scene()
        let leaf = scene.add(View(label: "leaf"))
        let probe = Probe()
        leaf.strategies.on(Ping.self) { _, _, _ in
            // Queued behind the current main-actor job: it can only run if the send gives up
            // the main actor before it reaches the application.
            Task { @MainActor in probe.interleaved = true }
            return .pass
        }
        scene.app.strategies.on(Ping.self) { _, _, _ in
            probe.sawInterleaving = probe.interleaved
            return .pass
        }

        // With a deadline, the deadline race's child task enters the main actor once and runs
        // every hop there.
        let options = withDeadline ? SendOptions(timeout: .seconds(60)) : .default
        let outcome = await leaf.send(Ping(), options: options)

        #expect(outcome.hops == 6)
        #expect(probe.sawInterleaving == false)
    }

    @Test("an event sent from a background task reaches the main-actor responders and the delegate")
    func sentFromBackground() async {
        let scene = UIFixtures.Scene()
        let leaf = scene.add(View(label: "leaf"))
        leaf.strategies.on(Ping.self) { _, ping, context in
            MainActor.assertIsolated()
            return .pass
        }
        let options = scene.options
        let outcome = await Task.detached { await leaf.send(Ping(), options: options) }.value
        #expect(outcome.kind == .unhandled)
        #expect(scene.recorder.labels == ["leaf", "rootView", "controller", "window", "app", "AppDelegate"])
    }
}

@MainActor
private final class Probe {
    var interleaved = false
    var sawInterleaving: Bool?
}
