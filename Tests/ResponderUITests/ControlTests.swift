import ResponderChainTesting
import ResponderUI
import Testing

private typealias AddToCart = UIFixtures.AddToCart
private typealias FavouriteChanged = UIFixtures.FavouriteChanged

@MainActor
private final class Received {
    var skus: [String] = []
    var favourites: [Bool] = []
}

@MainActor
private struct ControlScene {
    let scene = UIFixtures.Scene()
    let buy = Button(frame: Rect(x: 100, y: 100, width: 40, height: 20), title: "Buy")
    let favourite = Switch(frame: Rect(x: 200, y: 100, width: 50, height: 30), label: "favourite")
    let received = Received()

    init() {
        scene.controller.view.addSubview(buy)
        scene.controller.view.addSubview(favourite)
        buy.addChainEvent(for: .tap) { button in AddToCart(sku: "sku-\(button.title)") }
        favourite.addChainEvent(for: .valueChanged) { toggle in FavouriteChanged(isOn: toggle.isOn) }
        let received = received
        scene.controller.handlers.on(AddToCart.self) { _, event, _ in
            received.skus.append(event.sku)
            return .handled
        }
        scene.controller.handlers.on(FavouriteChanged.self) { _, event, _ in
            received.favourites.append(event.isOn)
            return .handled
        }
    }
}

@Suite("Controls", .timeLimit(.minutes(1)))
@MainActor
struct ControlTests {
    @Test("a tapped button sends its chain event up the chain from itself")
    func buttonTap() async {
        let ui = ControlScene()
        let delivery = await ui.scene.window.tap(at: Point(x: 110, y: 110))

        #expect(delivery?.target === ui.buy)
        #expect(delivery?.outcome.handlers == [ResponderID(ui.buy)])
        #expect(ui.received.skus == ["sku-Buy"])
        #expect(ui.buy.lastOutcomes.map(\.handlers) == [[ResponderID(ui.scene.controller)]])
        #expect(!ui.buy.isHighlighted)
    }

    @Test("began inside, ended outside: no chain event")
    func releasedOutside() async {
        let ui = ControlScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 110, y: 110))
        #expect(ui.buy.isHighlighted)
        await ui.scene.window.dispatch(.moved, at: Point(x: 300, y: 300))
        #expect(!ui.buy.isHighlighted)
        await ui.scene.window.dispatch(.ended, at: Point(x: 300, y: 300))
        #expect(ui.received.skus.isEmpty)
    }

    @Test("an enlarged hit area makes a tap next to the button count")
    func enlargedButton() async {
        let ui = ControlScene()
        ui.buy.hitAreaInsets = EdgeInsets(all: -10)
        await ui.scene.window.tap(at: Point(x: 90, y: 90))
        #expect(ui.received.skus == ["sku-Buy"])
        await ui.scene.window.tap(at: Point(x: 150, y: 110))  // right edge of the area: outside
        #expect(ui.received.skus == ["sku-Buy"])
    }

    @Test("a switch flips and sends its value-changed event with the new value")
    func switchValueChanged() async {
        let ui = ControlScene()
        await ui.scene.window.tap(at: Point(x: 210, y: 110))
        await ui.scene.window.tap(at: Point(x: 210, y: 110))
        #expect(ui.received.favourites == [true, false])
        #expect(!ui.favourite.isOn)
    }

    @Test("a disabled control lets the pointer events pass and sends nothing")
    func disabled() async {
        let ui = ControlScene()
        ui.buy.isEnabled = false
        let delivery = await ui.scene.window.tap(at: Point(x: 110, y: 110))
        #expect(delivery?.outcome.kind == .unhandled)
        #expect(ui.received.skus.isEmpty)
    }

    @Test(
        "a control tracking a pointer that began on its subview loses its highlight when it leaves the window"
    )
    func highlightDroppedWhenRemoved() async {
        let ui = ControlScene()
        let icon = View(frame: Rect(x: 0, y: 0, width: 10, height: 10), label: "icon")
        ui.buy.addSubview(icon)
        let began = await ui.scene.window.dispatch(.began, at: Point(x: 105, y: 105))
        #expect(began?.target === icon)
        #expect(ui.buy.isHighlighted)

        ui.buy.removeFromSuperview()

        #expect(!ui.buy.isHighlighted)
        #expect(ui.scene.window.activePointers.isEmpty)
        #expect(ui.received.skus.isEmpty)
    }

    @Test("a system cancellation mid-tap removes the highlight and sends nothing")
    func systemCancellation() async {
        let ui = ControlScene()
        await ui.scene.window.dispatch(.began, at: Point(x: 110, y: 110))
        #expect(ui.buy.isHighlighted)
        let cancelled = await ui.scene.window.dispatch(.cancelled, at: Point(x: 110, y: 110))
        #expect(cancelled?.outcome.handlers == [ResponderID(ui.buy)])
        #expect(!ui.buy.isHighlighted)
        #expect(ui.received.skus.isEmpty)
    }

    @Test(
        "a began parked in the button's own handler when the button leaves the window: no highlight after the cancellation"
    )
    func parkedBeganAfterRemoval() async throws {
        let ui = ControlScene()
        let gate = Gate()
        ui.buy.handlers.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == .began { try await gate.pass() }
            return .pass
        }
        let window = ui.scene.window
        let dispatching = Task { @MainActor in await window.dispatch(.began, at: Point(x: 110, y: 110)) }
        try await gate.waitForArrivals(1)

        ui.buy.removeFromSuperview()
        gate.open()
        let delivery = try #require(await dispatching.value)

        #expect(delivery.outcome.cancelledDetails?.reason == .withdrawn)
        #expect(!ui.buy.isHighlighted)
        #expect(ui.received.skus.isEmpty)
    }

    @Test(
        "a moved parked in the button's own handler when the tap ends: the tap counts once, no highlight left"
    )
    func parkedMovedThenEnded() async throws {
        let ui = ControlScene()
        let gate = Gate()
        ui.buy.handlers.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == .moved { try await gate.pass() }
            return .pass
        }
        let window = ui.scene.window
        try #require(await window.dispatch(.began, at: Point(x: 110, y: 110)) != nil)
        let moving = Task { @MainActor in await window.dispatch(.moved, at: Point(x: 115, y: 110)) }
        try await gate.waitForArrivals(1)

        let ended = try #require(await window.dispatch(.ended, at: Point(x: 115, y: 110)))
        #expect(ended.outcome.handlers == [ResponderID(ui.buy)])
        gate.open()
        let moved = try #require(await moving.value)

        #expect(moved.outcome.cancelledDetails?.reason == .withdrawn)
        #expect(!ui.buy.isHighlighted)
        #expect(ui.received.skus == ["sku-Buy"])
    }

    @Test("a control's chain events can be sent directly and removed")
    func directSend() async {
        let ui = ControlScene()
        let outcomes = await ui.buy.sendChainEvents(for: .tap)
        #expect(outcomes.map(\.kind) == [.handled])
        ui.buy.removeChainEvents(for: .tap)
        #expect(await ui.buy.sendChainEvents(for: .tap).isEmpty)
        #expect(ui.received.skus == ["sku-Buy"])
    }
}
