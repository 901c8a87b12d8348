import ResponderChainTesting
import ResponderUI
import Testing

private typealias AddToCart = UIFixtures.AddToCart
private typealias FavouriteChanged = UIFixtures.FavouriteChanged
private typealias Ping = UIFixtures.Ping

@Suite("What a pointer delivery returns")
@MainActor
struct PointerDeliveryTests {
    @Test("a tap on a button returns its chain event, handled where the chain handled it")
    func handledChainEvent() async throws {
        let shop = UIFixtures.ShopScene()
        shop.scene.controller.strategies.on(AddToCart.self) { _, _, _ in .handled }

        let delivery = try #require(await shop.scene.window.tap(at: shop.onBuy))

        #expect(delivery.outcome.handlers == [ResponderID(shop.buy)])  // the pointer event
        #expect(delivery.triggered.count == 1)
        let sent = try #require(delivery.triggered.first)
        #expect(sent.control === shop.buy)
        #expect(sent.controlEvent == .tap)
        #expect((sent.event as? AddToCart)?.sku == "sku-Buy")
        let handled = try #require(sent.outcome.handledDetails)
        #expect(handled.stoppedAt == ResponderID(shop.scene.controller))
        #expect(shop.buy.lastOutcomes.map(\.kind) == [.handled])
    }

    @Test("a tap on a button whose chain event nobody handles returns it unhandled at the delegate")
    func unhandledChainEvent() async throws {
        let shop = UIFixtures.ShopScene()

        let delivery = try #require(await shop.scene.window.tap(at: shop.onBuy))

        let sent = try #require(delivery.triggered.first)
        #expect(try #require(sent.outcome.unhandledDetails).root == ResponderID(shop.scene.delegate))
        #expect(await shop.scene.delegate.seen == ["AddToCart"])
    }

    @Test("a tap on a button in a detached window returns its chain event interrupted at the window")
    func interruptedChainEvent() async throws {
        let shop = UIFixtures.ShopScene()
        shop.scene.app.removeWindow(shop.scene.window)

        let delivery = try #require(await shop.scene.window.tap(at: shop.onBuy))

        #expect(delivery.outcome.kind == .handled)
        let sent = try #require(delivery.triggered.first)
        let interrupted = try #require(sent.outcome.interruptedDetails)
        #expect(interrupted.lastReached == ResponderID(shop.scene.window))
    }

    @Test(
        "a chain event under way when its window is detached comes back interrupted, and the tap waited for it"
    )
    func windowDetachedWhileTheChainEventIsUnderWay() async throws {
        let shop = UIFixtures.ShopScene()
        let app = shop.scene.app
        let window = shop.scene.window
        shop.scene.controller.view.strategies.on(AddToCart.self) { _, _, _ in
            app.removeWindow(window)
            return .pass
        }

        let delivery = try #require(await window.tap(at: shop.onBuy))

        let sent = try #require(delivery.triggered.first)
        #expect(try #require(sent.outcome.interruptedDetails).lastReached == ResponderID(window))
        #expect(window.application == nil)
    }

    @Test("a switch, which overrides controlTriggered, reports its value-changed event")
    func switchReports() async throws {
        let shop = UIFixtures.ShopScene()
        shop.scene.controller.strategies.on(FavouriteChanged.self) { _, _, _ in .handled }

        let first = try #require(await shop.scene.window.tap(at: shop.onFavourite))
        let second = try #require(await shop.scene.window.tap(at: shop.onFavourite))

        #expect(first.triggered.map(\.controlEvent) == [.valueChanged])
        #expect(first.triggered.compactMap { ($0.event as? FavouriteChanged)?.isOn } == [true])
        #expect(second.triggered.compactMap { ($0.event as? FavouriteChanged)?.isOn } == [false])
        #expect(first.triggered.map(\.outcome.kind) == [.handled])
        #expect(first.triggered.first?.control === shop.favourite)
    }

    @Test("every chain event a tap sends is returned, in the order sent")
    func severalChainEvents() async throws {
        let shop = UIFixtures.ShopScene()
        shop.buy.addChainEvent(for: .tap) { _ in Ping(tag: "second") }
        shop.scene.controller.strategies.on(Ping.self) { _, _, _ in .handled }

        let delivery = try #require(await shop.scene.window.tap(at: shop.onBuy))

        #expect(delivery.triggered.map(\.event.traceName) == ["AddToCart", "Ping"])
        #expect(delivery.triggered.map(\.outcome.kind) == [.unhandled, .handled])
    }

    @Test(
        "phases that trigger nothing return no chain events: began, moved, an ended outside, a tap on a plain view"
    )
    func nothingTriggered() async throws {
        let shop = UIFixtures.ShopScene()
        let began = try #require(await shop.scene.window.dispatch(.began, at: shop.onBuy))
        let moved = try #require(await shop.scene.window.dispatch(.moved, at: Point(x: 300, y: 300)))
        let endedOutside = try #require(await shop.scene.window.dispatch(.ended, at: Point(x: 300, y: 300)))
        let plain = try #require(await shop.scene.window.tap(at: Point(x: 10, y: 10)))

        #expect(began.triggered.isEmpty)
        #expect(moved.triggered.isEmpty)
        #expect(endedOutside.triggered.isEmpty)
        #expect(plain.triggered.isEmpty)
        #expect(await shop.scene.delegate.seen.filter { $0 == "AddToCart" }.isEmpty)
    }

    @Test(
        "what a chain event's handlers trigger in turn is theirs, not the tap's; a tap made from a handler returns its own"
    )
    func nestedTriggers() async throws {
        let shop = UIFixtures.ShopScene()
        let window = shop.scene.window
        let favourite = shop.favourite
        let onFavourite = shop.onFavourite
        let inner = Box()
        shop.scene.controller.strategies.on(AddToCart.self) { _, _, _ in
            await favourite.sendChainEvents(for: .valueChanged)
            inner.delivery = await window.tap(at: onFavourite)
            return .handled
        }

        let delivery = try #require(await window.tap(at: shop.onBuy))

        #expect(delivery.triggered.map(\.event.traceName) == ["AddToCart"])
        let tapFromHandler = try #require(inner.delivery)
        #expect(tapFromHandler.triggered.map(\.event.traceName) == ["FavouriteChanged"])
        #expect(favourite.lastOutcomes.count == 1)
    }
}

/// Where a handler leaves the delivery of the tap it made.
@MainActor
private final class Box {
    var delivery: PointerDelivery?
}
