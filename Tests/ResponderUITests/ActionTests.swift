import ResponderUI
import Testing

private typealias Copy = UIFixtures.Copy
private typealias Paste = UIFixtures.Paste
private typealias Share = UIFixtures.Share

@MainActor
private final class Counter {
    var copies = 0
}

@MainActor
private struct EditorScene {
    let scene = UIFixtures.Scene()
    let editor = UIFixtures.RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 300), label: "editor")
    let menu = View(frame: Rect(x: 0, y: 300, width: 400, height: 100), label: "menu")
    let counter = Counter()
    /// An event proxy that handles `Share`, for a test to put beside a responder.
    let shareProxy = UIFixtures.ShareProxy()

    init() {
        scene.controller.view.addSubviews(editor, menu)
        editor.acceptsFocus = true
        let counter = counter
        scene.controller.strategies.on(Copy.self) { _, _, _ in
            counter.copies += 1
            return .handled
        }
    }
}

@Suite("Nil-target actions")
@MainActor
struct ActionTests {
    @Test("an action with no target starts at the first responder and stops at the first that can perform it")
    func fromFirstResponder() async {
        let ui = EditorScene()
        #expect(ui.editor.becomeFirstResponder())

        let outcome = await ui.scene.app.sendAction(Copy(), from: ui.menu)

        #expect(outcome.handlers == [ResponderID(ui.scene.controller)])
        #expect(ui.scene.recorder.labels == ["editor", "rootView", "controller"])
        #expect(ui.counter.copies == 1)
    }

    @Test("with no first responder the action starts at the sender")
    func fromSender() async {
        let ui = EditorScene()
        let outcome = await ui.scene.app.sendAction(Copy(), from: ui.menu)
        #expect(ui.scene.recorder.labels == ["menu", "rootView", "controller"])
        #expect(outcome.isHandled)
    }

    @Test("the can-perform query finds the target without running anything")
    func canPerformQuery() async {
        let ui = EditorScene()
        #expect(ui.editor.becomeFirstResponder())

        let target = await ui.scene.app.target(forAction: Copy.self)

        #expect(target === ui.scene.controller)
        #expect(ui.counter.copies == 0)
        #expect(ui.scene.recorder.labels.isEmpty)
        #expect(await ui.scene.controller.canPerform(Copy.self))
        #expect(await !ui.editor.canPerform(Copy.self))
    }

    @Test("the query reaches the delegate's static table, and answers nil when nobody can perform")
    func queryToTheDelegate() async {
        let ui = EditorScene()
        let pasteTarget = await ui.scene.app.target(forAction: Paste.self, from: ui.menu)
        #expect(pasteTarget === ui.scene.delegate)
        #expect(await ui.scene.app.target(forAction: UIFixtures.Ping.self, from: ui.menu) == nil)
        let outcome = await ui.scene.app.sendAction(Paste(), from: ui.menu)
        #expect(outcome.handlers == [ResponderID(ui.scene.delegate)])
        #expect(await ui.scene.delegate.seen == ["Paste"])
    }

    @Test("an action only the controller's event proxy handles is performed through the controller")
    func eventProxy() async {
        let ui = EditorScene()
        ui.scene.controller.eventProxy = ui.shareProxy
        #expect(await ui.scene.app.target(forAction: Share.self, from: ui.menu) === ui.scene.controller)
        #expect(await ui.shareProxy.shared == 0)
        let outcome = await ui.scene.app.sendAction(Share(), from: ui.menu)
        #expect(outcome.handlers == [ResponderID(ui.scene.controller)])
        #expect(await ui.shareProxy.shared == 1)
    }

    @Test(
        "the query sees an action a view's proxy performs, as the send does: the view is the target, and the send is handled there"
    )
    func proxyOfAView() async {
        let ui = EditorScene()
        #expect(ui.editor.becomeFirstResponder())
        #expect(await ui.scene.app.target(forAction: Share.self) == nil)

        ui.editor.strategies.proxy { [shareProxy = ui.shareProxy] _ in shareProxy }

        #expect(await ui.editor.canPerform(Share.self))
        #expect(await ui.scene.app.target(forAction: Share.self) === ui.editor)
        #expect(await ui.shareProxy.shared == 0)
        let outcome = await ui.scene.app.sendAction(Share())
        #expect(outcome.handlers == [ResponderID(ui.editor)])
        #expect(await ui.shareProxy.shared == 1)
    }

    @Test(
        "the query follows a proxy's own proxy, as the send does; a proxy cycle answers no instead of recursing"
    )
    func proxiesOfProxies() async {
        let ui = EditorScene()
        let first = View(label: "first proxy")
        let second = View(label: "second proxy")
        first.strategies.proxy { _ in second }
        second.strategies.proxy { [shareProxy = ui.shareProxy] _ in shareProxy }
        ui.menu.strategies.proxy { _ in first }

        #expect(await ui.scene.app.target(forAction: Share.self, from: ui.menu) === ui.menu)
        let outcome = await ui.scene.app.sendAction(Share(), from: ui.menu)
        #expect(outcome.handlers == [ResponderID(ui.menu)])
        #expect(await ui.shareProxy.shared == 1)

        second.strategies.proxy { _ in first }  // first → second → first
        #expect(await !ui.menu.canPerform(Share.self))
        #expect(await ui.scene.app.target(forAction: Share.self, from: ui.menu) == nil)
        #expect(await ui.scene.app.target(forAction: Copy.self, from: ui.menu) === ui.scene.controller)
    }

    @Test("the query follows the proxy of a responder that is not an interface responder (the delegate's)")
    func proxyOfTheDelegate() async {
        let shareProxy = UIFixtures.ShareProxy()
        let delegate = ForwardingDelegate(proxy: shareProxy)
        let app = Application(delegate: delegate, label: "app")
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "window")
        app.addWindow(window)

        #expect(await app.target(forAction: Share.self, from: window) === delegate)
        #expect(await app.target(forAction: Copy.self, from: window) == nil)
        let outcome = await app.sendAction(Share(), from: window)
        #expect(outcome.handlers == [ResponderID(delegate)])
        #expect(await shareProxy.shared == 1)
    }

    @Test("a catch-all is not counted by the query: it decides only when it runs")
    func catchAllNotCounted() async {
        let ui = EditorScene()
        #expect(ui.editor.becomeFirstResponder())
        ui.editor.strategies.onAnyEvent { _, _, _ in .pass }
        #expect(await !ui.editor.canPerform(Copy.self))
        #expect(await ui.scene.app.target(forAction: Copy.self) === ui.scene.controller)
    }

    @Test("without a sender the action starts at the key window's first responder")
    func keyWindow() async {
        let ui = EditorScene()
        let other = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "other")
        let field = UIFixtures.RecordingView(frame: Rect(x: 0, y: 0, width: 50, height: 50), label: "field")
        field.acceptsFocus = true
        other.addSubview(field)
        ui.scene.app.addWindow(other)
        #expect(ui.scene.app.keyWindow === ui.scene.window)
        #expect(field.becomeFirstResponder())
        #expect(ui.editor.becomeFirstResponder())

        other.makeKey()
        #expect(other.isKeyWindow)
        #expect(!ui.scene.window.isKeyWindow)
        let outcome = await ui.scene.app.sendAction(Copy())
        #expect(ui.scene.recorder.labels == ["field", "other", "app", "AppDelegate"])
        #expect(outcome.kind == .unhandled)

        ui.scene.app.removeWindow(other)
        #expect(ui.scene.app.keyWindow === ui.scene.window)
    }
}

/// An app delegate that hands every event to a proxy (and ends the chain).
private actor ForwardingDelegate: Responder {
    let proxy: any Responder
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    init(proxy: any Responder) {
        self.proxy = proxy
    }

    static let strategies = Strategies<ForwardingDelegate> { $0.proxy { $0.proxy } }
}
