import ResponderChainTesting
import ResponderUI
import Testing

private typealias RecordingView = UIFixtures.RecordingView

@MainActor
private struct PointerScene {
    let scene = UIFixtures.Scene()
    let left = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "left")
    let right = RecordingView(frame: Rect(x: 200, y: 0, width: 100, height: 100), label: "right")
    let panel = RecordingView(frame: Rect(x: 0, y: 200, width: 200, height: 200), label: "panel")
    let knob = RecordingView(frame: Rect(x: 10, y: 10, width: 50, height: 50), label: "knob")

    init() {
        scene.controller.view.addSubviews(left, right, panel)
        panel.addSubview(knob)
    }
}

@Suite("Pointer sequences", .timeLimit(.minutes(1)))
@MainActor
struct PointerSequenceTests {
    @Test("a sequence is bound to the view hit at began; moved and ended go there even outside it")
    func boundAtBegan() async {
        let ui = PointerScene()
        ui.left.pointerDisposition = .handled
        let began = await ui.scene.window.dispatch(.began, at: Point(x: 50, y: 50))
        let moved = await ui.scene.window.dispatch(.moved, at: Point(x: 250, y: 50))
        let ended = await ui.scene.window.dispatch(.ended, at: Point(x: 250, y: 50))

        #expect(began?.target === ui.left)
        #expect(moved?.target === ui.left)
        #expect(ended?.target === ui.left)
        #expect(ended?.outcome.handlers == [ResponderID(ui.left)])
        #expect(ui.left.log == ["began 0", "moved 0", "ended 0"])
        #expect(ui.right.log.isEmpty)
        #expect(ui.scene.window.activePointers.isEmpty)
    }

    @Test("later phases of a pointer with no sequence send nothing")
    func noSequence() async {
        let ui = PointerScene()
        #expect(await ui.scene.window.dispatch(.moved, at: Point(x: 50, y: 50)) == nil)
        #expect(await ui.scene.window.dispatch(.ended, at: Point(x: 50, y: 50)) == nil)
        #expect(ui.left.log.isEmpty)
    }

    @Test("several pointers are tracked independently (multi-touch)")
    func multiTouch() async {
        let ui = PointerScene()
        let one = PointerID(1)
        let two = PointerID(2)
        await ui.scene.window.dispatch(.began, at: Point(x: 10, y: 10), pointer: one)
        await ui.scene.window.dispatch(.began, at: Point(x: 210, y: 10), pointer: two)
        #expect(ui.scene.window.activePointers == [one, two])
        #expect(ui.scene.window.boundView(for: one) === ui.left)
        #expect(ui.scene.window.boundView(for: two) === ui.right)
        await ui.scene.window.dispatch(.moved, at: Point(x: 220, y: 20), pointer: one)
        await ui.scene.window.dispatch(.ended, at: Point(x: 220, y: 20), pointer: one)
        await ui.scene.window.dispatch(.ended, at: Point(x: 20, y: 20), pointer: two)
        #expect(ui.left.log == ["began 1", "moved 1", "ended 1"])
        #expect(ui.right.log == ["began 2", "ended 2"])
    }

    @Test("unhandled pointer events bubble up the chain like any event")
    func bubbling() async {
        let ui = PointerScene()
        ui.panel.pointerDisposition = .handled
        let delivery = await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 220))
        #expect(delivery?.target === ui.knob)
        #expect(ui.knob.log == ["began 0"])
        #expect(ui.panel.log == ["began 0"])
        #expect(delivery?.outcome.handlers == [ResponderID(ui.panel)])
        #expect(ui.scene.recorder.labels == ["knob", "panel"])
    }

    @Test("an input cancellation ends the sequence with a cancelled event through the chain")
    func systemCancel() async {
        let ui = PointerScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 10, y: 10))
        let cancelled = await ui.scene.window.dispatch(.cancelled, at: Point(x: 10, y: 10))
        #expect(cancelled?.event.cancellation == .system)
        #expect(ui.left.log == ["began 0", "cancelled 0"])
        #expect(ui.scene.window.activePointers.isEmpty)
    }

    @Test("removing the bound view mid-sequence cancels the sequence and tells the view")
    func viewRemoved() async {
        let ui = PointerScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 220))
        #expect(ui.scene.window.boundView(for: .primary) === ui.knob)

        ui.knob.removeFromSuperview()

        #expect(ui.knob.log == ["began 0", "cancelled 0"])
        #expect(ui.knob.cancellations == [.viewLeftWindow])
        #expect(ui.scene.window.activePointers.isEmpty)
        #expect(await ui.scene.window.dispatch(.ended, at: Point(x: 20, y: 220)) == nil)
        #expect(ui.knob.log == ["began 0", "cancelled 0"])
    }

    @Test("removing an ancestor of the bound view cancels the sequence too; other sequences go on")
    func ancestorRemoved() async {
        let ui = PointerScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 220), pointer: PointerID(1))
        await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 20), pointer: PointerID(2))

        ui.panel.removeFromSuperview()

        #expect(ui.knob.cancellations == [.viewLeftWindow])
        #expect(ui.left.cancellations.isEmpty)
        #expect(ui.scene.window.activePointers == [PointerID(2)])
        #expect(await ui.scene.window.dispatch(.ended, at: Point(x: 20, y: 20), pointer: PointerID(2)) != nil)
        #expect(ui.left.log == ["began 2", "ended 2"])
    }

    @Test("the cancellation bubbles from the bound view up its chain as it now stands, until handled")
    func cancellationBubbles() async {
        let ui = PointerScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 220), pointer: PointerID(1))
        ui.panel.removeFromSuperview()
        // knob passes, so panel (the removed subtree's root, where the chain now ends) is told.
        #expect(ui.knob.log == ["began 1", "cancelled 1"])
        #expect(ui.panel.log == ["began 1", "cancelled 1"])
        #expect(ui.panel.cancellations == [.viewLeftWindow])

        let again = PointerScene()
        again.knob.pointerDisposition = .handled
        await again.scene.window.dispatch(.began, at: Point(x: 20, y: 220), pointer: PointerID(1))
        again.scene.app.removeWindow(again.scene.window)
        // knob handles it: nobody above hears of it.
        #expect(again.knob.cancellations == [.windowDetached])
        #expect(again.panel.log.isEmpty)
    }

    @Test("moving the bound view into another window cancels its sequence")
    func movedToAnotherWindow() async {
        let ui = PointerScene()
        let other = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "other")
        ui.scene.app.addWindow(other)
        await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 220))

        other.addSubview(ui.knob)

        #expect(ui.knob.cancellations == [.viewLeftWindow])
        #expect(ui.scene.window.activePointers.isEmpty)
        #expect(other.activePointers.isEmpty)
        #expect(await ui.scene.window.dispatch(.ended, at: Point(x: 20, y: 220)) == nil)
    }

    @Test("moving the bound view within its window keeps the sequence")
    func moveWithinWindow() async {
        let ui = PointerScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 220))
        ui.left.addSubview(ui.knob)
        #expect(ui.knob.cancellations.isEmpty)
        #expect(await ui.scene.window.dispatch(.ended, at: Point(x: 0, y: 0))?.target === ui.knob)
    }

    @Test(
        "pointer events sent straight to a view outside any window reach it and bubble; nothing withdraws them"
    )
    func directSendOutsideWindow() async throws {
        let holder = RecordingView(label: "holder")
        let view = RecordingView(label: "view")
        holder.addSubview(view)
        let gate = view.parkPointerEvents(.began)
        let sending = Task { @MainActor in await view.send(PointerEvent(phase: .began, location: .zero)) }
        try await gate.waitForArrivals(1)
        gate.open()
        let began = await sending.value
        let moved = await view.send(PointerEvent(phase: .moved, location: .zero))
        let ended = await view.send(PointerEvent(phase: .ended, location: .zero))

        for outcome in [began, moved, ended] {
            #expect(outcome.interruptedDetails?.lastReached == ResponderID(holder), "\(outcome)")
        }
        #expect(view.log == ["began 0", "moved 0", "ended 0"])
        #expect(holder.log == ["began 0", "moved 0", "ended 0"])
    }

    @Test("detaching the window cancels its sequences and tells the views")
    func windowDetached() async {
        let ui = PointerScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 20, y: 220), pointer: PointerID(1))
        await ui.scene.window.dispatch(.began, at: Point(x: 250, y: 20), pointer: PointerID(2))

        ui.scene.app.removeWindow(ui.scene.window)

        #expect(ui.knob.cancellations == [.windowDetached])
        #expect(ui.right.cancellations == [.windowDetached])
        #expect(ui.scene.window.activePointers.isEmpty)
        #expect(ui.scene.window.application == nil)
        #expect(ui.scene.app.windows.isEmpty)
        #expect(ui.scene.app.keyWindow == nil)
    }
}
