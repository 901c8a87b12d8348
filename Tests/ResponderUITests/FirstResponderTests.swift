import ResponderUI
import Testing

private typealias RecordingView = UIFixtures.RecordingView

@MainActor
private struct FormScene {
    let scene = UIFixtures.Scene()
    let form = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 200), label: "form")
    let name = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 40), label: "name")
    let email = RecordingView(frame: Rect(x: 0, y: 50, width: 200, height: 40), label: "email")

    init() {
        scene.add(form).addSubviews(name, email)
        name.acceptsFocus = true
        email.acceptsFocus = true
    }
}

@Suite("First responder and key events")
@MainActor
struct FirstResponderTests {
    @Test("a responder that can become first responder does, and the previous one resigns")
    func transitions() {
        let ui = FormScene()
        #expect(ui.scene.window.firstResponder == nil)
        #expect(ui.name.becomeFirstResponder())
        #expect(ui.name.isFirstResponder)
        #expect(ui.scene.window.firstResponder === ui.name)
        #expect(ui.email.becomeFirstResponder())
        #expect(!ui.name.isFirstResponder)
        #expect(ui.scene.window.firstResponder === ui.email)
        #expect(ui.email.resignFirstResponder())
        #expect(ui.scene.window.firstResponder == nil)
    }

    @Test("refused when the new responder cannot become first responder; the current one stays")
    func newOneCannotBecome() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        ui.email.acceptsFocus = false
        #expect(!ui.email.becomeFirstResponder())
        #expect(ui.scene.window.firstResponder === ui.name)
        #expect(!ui.form.becomeFirstResponder())
    }

    @Test("refused when the current first responder will not resign")
    func currentOneRefusesToResign() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        ui.name.releasesFocus = false
        #expect(!ui.email.becomeFirstResponder())
        #expect(!ui.name.resignFirstResponder())
        #expect(ui.scene.window.firstResponder === ui.name)
        ui.name.releasesFocus = true
        #expect(ui.email.becomeFirstResponder())
    }

    @Test("a responder in no window cannot become first responder; leaving the window drops it")
    func windowMembership() {
        let ui = FormScene()
        let loose = RecordingView(label: "loose")
        loose.acceptsFocus = true
        #expect(!loose.becomeFirstResponder())
        #expect(ui.name.becomeFirstResponder())
        ui.form.removeFromSuperview()
        #expect(ui.scene.window.firstResponder == nil)
        #expect(!ui.name.isFirstResponder)
    }

    @Test("key events start at the first responder and bubble until handled")
    func keyBubbling() async {
        let ui = FormScene()
        ui.form.keyDisposition = .handled
        #expect(ui.email.becomeFirstResponder())

        let outcome = await ui.scene.window.dispatch(KeyEvent("a"))

        #expect(ui.email.log == ["keyDown a"])
        #expect(ui.form.log == ["keyDown a"])
        #expect(ui.name.log.isEmpty)
        #expect(outcome.handlers == [ResponderID(ui.form)])
        #expect(ui.scene.recorder.labels == ["email", "form"])
    }

    @Test("an unhandled key event reaches the delegate; without a first responder it starts at the window")
    func keyWithoutFirstResponder() async {
        let ui = FormScene()
        let outcome = await ui.scene.window.dispatch(KeyEvent(.return, modifiers: [.command]))
        #expect(outcome.kind == .unhandled)
        #expect(ui.scene.recorder.labels == ["window", "app", "AppDelegate"])
        #expect(await ui.scene.delegate.seen == ["KeyEvent.down"])
    }

    @Test("a handler registered for key events runs before the key methods")
    func keyHandler() async {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        var keys: [Key] = []
        ui.name.strategies.on(KeyEvent.self) { name, key, _ in
            keys.append(key.key)
            return .handled
        }
        await ui.scene.window.dispatch(KeyEvent(.escape))
        #expect(keys == [.escape])
        #expect(ui.name.log.isEmpty)
    }
}
