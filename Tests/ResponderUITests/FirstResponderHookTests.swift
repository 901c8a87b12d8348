import ResponderUI
import Testing

/// What the hooks saw, in order, across every field of a scene: who was told what, and who the
/// window's first responder was at that moment.
@MainActor
private final class HookJournal {
    let window: Window
    var entries: [String] = []

    init(window: Window) {
        self.window = window
    }

    func record(_ label: String, _ what: String) {
        entries.append("\(label) \(what), first: \(window.firstResponder?.label ?? "none")")
    }
}

/// A focusable view that records its first-responder hooks, and can run code from them.
@MainActor
private final class Field: View {
    let journal: HookJournal
    var releasesFocus = true
    var onResign: (() -> Void)?

    init(_ label: String, journal: HookJournal) {
        self.journal = journal
        super.init(frame: Rect(x: 0, y: 0, width: 100, height: 30), label: label)
    }

    override var canBecomeFirstResponder: Bool { true }
    override var canResignFirstResponder: Bool { releasesFocus }

    override func didBecomeFirstResponder() {
        journal.record(label, "became")
    }

    override func didResignFirstResponder() {
        journal.record(label, "resigned")
        onResign?()
    }
}

@MainActor
private struct FormScene {
    let scene = UIFixtures.Scene()
    let journal: HookJournal
    let form = View(frame: Rect(x: 0, y: 0, width: 400, height: 200), label: "form")
    let name: Field
    let email: Field

    init() {
        journal = HookJournal(window: scene.window)
        name = Field("name", journal: journal)
        email = Field("email", journal: journal)
        scene.controller.view.addSubview(form)
        form.addSubview(name)
        form.addSubview(email)
    }
}

@Suite("First-responder hooks")
@MainActor
struct FirstResponderHookTests {
    @Test("becoming first responder calls didBecome once the window names the new one")
    func become() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        #expect(ui.journal.entries == ["name became, first: name"])
        #expect(ui.name.becomeFirstResponder())  // already first responder: nothing happens
        #expect(ui.journal.entries == ["name became, first: name"])
    }

    @Test("a change resigns the old one (window names none) before the new one becomes (window names it)")
    func changeOrder() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        ui.journal.entries.removeAll()

        #expect(ui.email.becomeFirstResponder())

        #expect(ui.journal.entries == ["name resigned, first: none", "email became, first: email"])
    }

    @Test("resigning calls didResign with the window naming none")
    func resign() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        #expect(ui.name.resignFirstResponder())
        #expect(ui.name.resignFirstResponder())  // no longer first responder: nothing happens
        #expect(ui.journal.entries == ["name became, first: name", "name resigned, first: none"])
    }

    @Test("a refused change calls no hook, whichever side refuses")
    func refusedChanges() {
        let ui = FormScene()
        let plain = View(label: "plain")  // cannot become first responder
        ui.form.addSubview(plain)
        let loose = Field("loose", journal: ui.journal)  // in no window
        #expect(ui.name.becomeFirstResponder())
        ui.journal.entries.removeAll()

        #expect(!plain.becomeFirstResponder())
        #expect(!loose.becomeFirstResponder())
        ui.name.releasesFocus = false
        #expect(!ui.email.becomeFirstResponder())
        #expect(!ui.name.resignFirstResponder())

        #expect(ui.journal.entries.isEmpty)
        #expect(ui.scene.window.firstResponder === ui.name)
    }

    @Test(
        "a first responder that leaves its window resigns: removed with an ancestor, or moved to another window"
    )
    func leavingTheWindow() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        ui.form.removeFromSuperview()
        #expect(ui.journal.entries == ["name became, first: name", "name resigned, first: none"])
        #expect(ui.scene.window.firstResponder == nil)

        ui.scene.controller.view.addSubview(ui.form)
        #expect(ui.email.becomeFirstResponder())
        let other = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "other")
        ui.scene.app.addWindow(other)
        other.addSubview(ui.email)
        #expect(
            ui.journal.entries.suffix(2) == ["email became, first: email", "email resigned, first: none"])
        #expect(!ui.email.isFirstResponder)
        #expect(other.firstResponder == nil)
    }

    @Test("a view that leaves the window without being first responder calls no hook")
    func leavingWithoutFocus() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        ui.email.removeFromSuperview()
        #expect(ui.journal.entries == ["name became, first: name"])
        #expect(ui.name.isFirstResponder)
    }

    @Test("detaching the window calls no hook: the window keeps its first responder")
    func windowDetached() {
        let ui = FormScene()
        #expect(ui.name.becomeFirstResponder())
        ui.scene.app.removeWindow(ui.scene.window)
        #expect(ui.scene.window.firstResponder === ui.name)
        ui.scene.app.addWindow(ui.scene.window)
        #expect(ui.journal.entries == ["name became, first: name"])
        #expect(ui.name.isFirstResponder)
    }

    @Test("when the resigning one's hook hands focus elsewhere, the newcomer does not become and is not told")
    func resignHookTakesOver() {
        let ui = FormScene()
        let search = Field("search", journal: ui.journal)
        ui.form.addSubview(search)
        #expect(ui.name.becomeFirstResponder())
        ui.name.onResign = { [search] in _ = search.becomeFirstResponder() }
        ui.journal.entries.removeAll()

        #expect(!ui.email.becomeFirstResponder())

        #expect(ui.journal.entries == ["name resigned, first: none", "search became, first: search"])
        #expect(ui.scene.window.firstResponder === search)
    }
}
