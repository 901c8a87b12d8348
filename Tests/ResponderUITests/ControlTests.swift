import ResponderChainTesting
import ResponderUI
import Testing

/// The shop scene, its root controller recording both chain events.
@MainActor
private func controlScene() -> UIFixtures.ShopScene {
    UIFixtures.ShopScene(recordingChainEvents: true)
}

@Suite("Controls", .timeLimit(.minutes(1)))
@MainActor
struct ControlTests {
    @Test("a tapped button sends its chain event up the chain from itself")
    func buttonTap() async {
        let ui = controlScene()
        let delivery = await ui.scene.window.tap(at: ui.onBuy)

        #expect(delivery?.target === ui.buy)
        #expect(delivery?.outcome.handlers == [ResponderID(ui.buy)])
        #expect(ui.received.skus == ["sku-Buy"])
        #expect(ui.buy.lastOutcomes.map(\.handlers) == [[ResponderID(ui.scene.controller)]])
        #expect(!ui.buy.isHighlighted)
    }

    @Test("began inside, ended outside: no chain event")
    func releasedOutside() async {
        let ui = controlScene()
        await ui.scene.window.dispatch(.began, at: ui.onBuy)
        #expect(ui.buy.isHighlighted)
        await ui.scene.window.dispatch(.moved, at: Point(x: 300, y: 300))
        #expect(!ui.buy.isHighlighted)
        await ui.scene.window.dispatch(.ended, at: Point(x: 300, y: 300))
        #expect(ui.received.skus.isEmpty)
    }

    @Test("an enlarged hit area makes a tap next to the button count")
    func enlargedButton() async {
        let ui = controlScene()
        ui.buy.hitAreaInsets = EdgeInsets(all: -10)
        await ui.scene.window.tap(at: Point(x: 90, y: 90))
        #expect(ui.received.skus == ["sku-Buy"])
        await ui.scene.window.tap(at: Point(x: 150, y: 110))  // right edge of the area: outside
        #expect(ui.received.skus == ["sku-Buy"])
    }

    @Test("a switch flips and sends its value-changed event with the new value")
    func switchValueChanged() async {
        let ui = controlScene()
        await ui.scene.window.tap(at: ui.onFavourite)
        await ui.scene.window.tap(at: ui.onFavourite)
        #expect(ui.received.favourites == [true, false])
        #expect(!ui.favourite.isOn)
    }

    @Test("a disabled control lets the pointer events pass and sends nothing")
    func disabled() async {
        let ui = controlScene()
        ui.buy.isEnabled = false
        let delivery = await ui.scene.window.tap(at: ui.onBuy)
        #expect(delivery?.outcome.kind == .unhandled)
        #expect(ui.received.skus.isEmpty)
    }

    @Test(
        "a control tracking a pointer that began on its subview loses its highlight when it leaves the window"
    )
    func highlightDroppedWhenRemoved() async {
        let ui = controlScene()
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
        let ui = controlScene()
        await ui.scene.window.dispatch(.began, at: ui.onBuy)
        #expect(ui.buy.isHighlighted)
        let cancelled = await ui.scene.window.dispatch(.cancelled, at: ui.onBuy)
        #expect(cancelled?.outcome.handlers == [ResponderID(ui.buy)])
        #expect(!ui.buy.isHighlighted)
        #expect(ui.received.skus.isEmpty)
    }

    @Test(
        "a began parked in the button's own handler when the button leaves the window: no highlight after the cancellation"
    )
    func parkedBeganAfterRemoval() async throws {
        let ui = controlScene()
        try await parkInButton(.began, at: ui.onBuy, of: ui) {
            ui.buy.removeFromSuperview()
        }
        #expect(ui.received.skus.isEmpty)
    }

    @Test(
        "a moved parked in the button's own handler when the tap ends: the tap counts once, no highlight left"
    )
    func parkedMovedThenEnded() async throws {
        let ui = controlScene()
        try #require(await ui.scene.window.dispatch(.began, at: ui.onBuy) != nil)
        try await parkInButton(.moved, at: Point(x: 115, y: 110), of: ui) {
            let ended = try #require(await ui.scene.window.dispatch(.ended, at: Point(x: 115, y: 110)))
            #expect(ended.outcome.handlers == [ResponderID(ui.buy)])
        }
        #expect(ui.received.skus == ["sku-Buy"])
    }

    @Test("a control's chain events can be sent directly and removed")
    func directSend() async {
        let ui = controlScene()
        let outcomes = await ui.buy.sendChainEvents(for: .tap)
        #expect(outcomes.map(\.kind) == [.handled])
        ui.buy.removeChainEvents(for: .tap)
        #expect(await ui.buy.sendChainEvents(for: .tap).isEmpty)
        #expect(ui.received.skus == ["sku-Buy"])
    }
}

/// Dispatches `phase` at `location`, parks it in the button's own handler while `meanwhile` runs,
/// then lets it go: it must come back withdrawn, and the button must be left unhighlighted.
@MainActor
private func parkInButton(
    _ phase: PointerPhase, at location: Point, of ui: UIFixtures.ShopScene,
    meanwhile: () async throws -> Void
) async throws {
    let gate = ui.buy.parkPointerEvents(phase)
    let parked = try await ui.scene.window.dispatch(phase, at: location, parkingAt: gate)
    try await meanwhile()
    gate.open()
    let delivery = try #require(await parked.value)
    #expect(delivery.outcome.cancelledDetails?.reason == .withdrawn)
    #expect(!ui.buy.isHighlighted)
}
