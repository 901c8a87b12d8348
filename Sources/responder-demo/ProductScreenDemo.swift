import ResponderChain
import ResponderChainTesting
import ResponderUI

/// The product-detail screen scenario (window layer): taps through hit testing into the chain,
/// then gestures competing with the buttons.
///
/// ```
/// window (the application's system on a ManualClock the demo advances)
/// ├─ rootView (ProductController, event proxy: ProductEvents)
/// │  ├─ header image (a tappable control)
/// │  └─ table (scrollable; pan recognizer "scroll" → Scrolled)
/// │     └─ cell 0…2: [Details] [Add] [Share] (favourite switch)
/// │        (long press recognizer "menu" → ShowMenu)
/// └─ popup (added straight to the window: skips the controller) [Close]
/// ```
enum ProductScreenDemo {
    @MainActor
    static func run() async {
        print("== Product screen ==")
        print("(each event's trace prints when that event finishes: a control's chain event, sent")
        print(" while its pointer's 'ended' is being handled, prints before that 'ended')")
        let screen = ProductScreen()

        let taps: [(String, Point)] = [
            ("tap 'Add' on cell 1", Point(x: 150, y: 200)),
            ("tap 2 pt left of 'Share' on cell 0 (enlarged hit area)", Point(x: 218, y: 160)),
            ("tap the favourite switch on cell 2", Point(x: 320, y: 250)),
            ("tap the product image", Point(x: 100, y: 60)),
            ("tap 'Details' on cell 0", Point(x: 40, y: 160)),
            ("tap 'Close' on the popup (added straight to the window)", Point(x: 340, y: 420)),
            ("tap outside the window", Point(x: 500, y: 500)),
        ]
        for (title, point) in taps {
            await screen.tap(title, at: point)
        }

        print("\n-- a drag that starts on 'Add' of cell 0; the cell is removed mid-way")
        await screen.window.dispatch(.began, at: Point(x: 150, y: 160))
        let add = screen.window.boundView(for: .primary)
        screen.cells[0].removeFromSuperview()
        for told in screen.takeTold() { print("   \(told)") }
        print("   \(add?.label ?? "?") is told: highlighted \((add as? Control)?.isHighlighted ?? false)")
        print("   active pointers after removal: \(screen.window.activePointers.count)")
        let later = await screen.window.dispatch(.ended, at: Point(x: 150, y: 160))
        print(
            "   a later 'ended' delivers \(later == nil ? "nothing: the sequence was cancelled" : "something")"
        )

        print("\n-- scroll the table by 44 pt, then tap the point of 'Add' on cell 1 again")
        screen.table.boundsOrigin = Point(x: 0, y: 44)
        await screen.tap("same point, scrolled: now cell 2's 'Add'", at: Point(x: 150, y: 200))

        await gestures(on: screen)

        print("\n-- the delegate saw: \(await screen.delegate.seen.joined(separator: ", "))")
        print("-- the cart holds: \(screen.events.cart.joined(separator: ", "))")
    }

    /// A pan on the table competes with the buttons in its rows; a long press on a row, with the
    /// window's clock advanced by hand, competes with both.
    @MainActor
    private static func gestures(on screen: ProductScreen) async {
        let window = screen.window
        let scroll = screen.scroll
        print("\n-- gestures: the table's pan recognizer '\(scroll)' competes with the buttons in its rows")
        print("   (attached from the start, it failed at each tap above: a tap does not move)")

        // Scene 1: a tap. The pan sees no movement and fails; the button triggers.
        let tapped = await screen.tap("tap 'Add' on cell 1 (in the pan's table)", at: Point(x: 150, y: 160))
        print("   \(scroll): \(attempt(of: scroll))")
        for sent in tapped?.triggered ?? [] {
            print("   \(sent.sender.label) \(sent.source) sent \(sent.event.traceName) → \(sent.outcome)")
        }

        // Scene 2: a drag that starts on a button. The pan recognizes and takes the sequence:
        // the button is told cancelled, and triggers nothing when the pointer lifts.
        let start = Point(x: 150, y: 160)
        print("\n-- drag 40 pt down, starting on 'Add' of cell 1 at \(start)")
        print("   hit: " + screen.hitPath(at: start))
        let cart = screen.events.cart.count
        await window.dispatch(.began, at: start)
        for step in 1...2 {
            let point = Point(x: start.x, y: start.y + Double(step) * 20)
            let delivery = await window.dispatch(.moved, at: point)
            print("   moved to \(point): \(scroll) \(scroll.state); \(whatViewsGet(delivery))")
            for told in screen.takeTold() { print("   \(told)") }
        }
        let lifted = await window.dispatch(.ended, at: Point(x: start.x, y: start.y + 40))
        print("   lifted: \(scroll) \(attempt(of: scroll)); \(whatViewsGet(lifted))")
        let added = screen.events.cart.count - cart
        print("   AddToCart sent: \(added) (the cart still holds \(screen.events.cart.count))")
        for scrolled in screen.events.scrolls {
            print(
                "   the controller handled Scrolled(\(scrolled.state)), translation \(scrolled.translation)")
        }
        print("   final translation: \(screen.events.scrolls.last?.translation ?? .zero)")

        // Scene 3: a long press. Time passes only when the demo advances the window's clock.
        let press = Point(x: 40, y: 205)
        print("\n-- press and hold 'Details' on cell 2 at \(press): the row's long press 'menu' needs 500 ms")
        print("   hit: " + screen.hitPath(at: press))
        await window.dispatch(.began, at: press)
        let menu = screen.cells[2].menu
        for step in [Duration.milliseconds(300), .milliseconds(200)] {
            await screen.clock.advance(by: step)
            let now = screen.clock.now.offset
            print(
                "   clock advanced by \(step.milliseconds) ms to \(now.milliseconds) ms: \(menu) \(menu.state)"
            )
            for told in screen.takeTold() { print("   \(told)") }
        }
        print("   \(scroll): \(attempt(of: scroll))")
        let released = await window.dispatch(.ended, at: press)
        print("   lifted: \(menu) \(attempt(of: menu)); \(whatViewsGet(released)): no ShowDetails")
        print("   the controller opened: \(screen.events.menus.joined(separator: ", "))")
    }

    /// How `recognizer`'s last attempt ended: `failed (defeated by menu)`.
    @MainActor
    private static func attempt(of recognizer: GestureRecognizer) -> String {
        recognizer.lastAttempt.map { "\($0)" } ?? "no attempt yet"
    }

    /// What the views got of a phase: nothing once a recognizer has claimed its sequence.
    @MainActor
    private static func whatViewsGet(_ delivery: PointerDelivery?) -> String {
        guard let delivery else { return "the views get nothing" }
        return "\(delivery.target.label) gets the \(delivery.event.phase)"
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    fileprivate var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}

// MARK: Events

private struct AddToCart: Event { let sku: String }
private struct ShowDetails: Event { let sku: String }
private struct ShareProduct: Event { let sku: String }
private struct FavouriteChanged: Event {
    let sku: String
    let isOn: Bool
}
private struct ZoomImage: Event {}
private struct ClosePopup: Event {}
private struct Scrolled: Event {
    let translation: Point
    let state: GestureRecognizer.State
}
private struct ShowMenu: Event { let sku: String }

private enum Row: InfoKey { typealias Value = Int }
private enum Screen: InfoKey { typealias Value = String }

// MARK: Responders

/// The app delegate: an actor off the main actor, the root; it sees what continues.
private actor AppDelegate: Responder {
    private(set) var seen: [String] = []
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<AppDelegate> {
        $0.onAnyEvent { delegate, event, context in
            if event is PointerEvent { return .pass }  // raw pointers nobody wanted: not analytics
            let row = context.info[Row.self].map { " row \($0)" } ?? ""
            delegate.seen.append(event.traceName + row)
            return .handled
        }
    }
}

/// The controller's event proxy: the "E" beside the controller, with its own strategy table.
@MainActor
private final class ProductEvents: MainActorResponder {
    var cart: [String] = []
    var scrolls: [Scrolled] = []
    var menus: [String] = []
    var next: (any Responder)? { nil }

    nonisolated static let strategies = Strategies<ProductEvents> {
        $0.on(AddToCart.self) { events, event, context in
            events.cart.append(event.sku)
            context.info[Screen.self] = "product"
            return .handledAndContinue  // analytics in the app delegate see it too
        }
        $0.on(ShowDetails.self) { _, _, _ in .handled }
        $0.on(Scrolled.self) { events, event, _ in
            events.scrolls.append(event)
            return .handled
        }
        $0.on(ShowMenu.self) { events, event, context in
            events.menus.append(
                "menu for \(event.sku)" + (context.info[Row.self].map { " (row \($0))" } ?? ""))
            return .handled
        }
        $0.on(FavouriteChanged.self) { _, _, context in
            context.info[Screen.self] = "product"
            return .handledAndContinue
        }
    }
}

@MainActor
private final class ProductCell: View {
    let row: Int
    let sku: String
    /// The row's long press: it opens the row's menu.
    let menu = LongPressGestureRecognizer(label: "menu", minimumPressDuration: .milliseconds(500))

    init(row: Int, sku: String, frame: Rect) {
        self.row = row
        self.sku = sku
        super.init(frame: frame, label: "cell \(row)")
        let details = Button(frame: Rect(x: 10, y: 4, width: 80, height: 36), title: "Details")
        let add = Button(frame: Rect(x: 110, y: 4, width: 80, height: 36), title: "Add")
        let share = Button(frame: Rect(x: 220, y: 10, width: 24, height: 24), title: "Share")
        share.hitAreaInsets = EdgeInsets(all: -10)
        let favourite = Switch(frame: Rect(x: 300, y: 8, width: 50, height: 28), label: "favourite")
        for control in [details, add, share, favourite] { addSubview(control) }

        details.addChainEvent(for: .tap) { [sku] _ in ShowDetails(sku: sku) }
        add.addChainEvent(for: .tap) { [sku] _ in AddToCart(sku: sku) }
        share.addChainEvent(for: .tap) { [sku] _ in ShareProduct(sku: sku) }
        favourite.addChainEvent(for: .valueChanged) { [sku] toggle in
            FavouriteChanged(sku: sku, isOn: toggle.isOn)
        }
        menu.addChainEvent { [sku] press in press.state == .began ? ShowMenu(sku: sku) : nil }
        addGestureRecognizer(menu)
        // Every event from inside the cell learns its row on the way up.
        for type in [AddToCart.self, ShareProduct.self, ShowDetails.self, ShowMenu.self] as [any Event.Type] {
            decorate(type)
        }
        strategies.on(FavouriteChanged.self) { cell, _, context in
            context.info[Row.self] = cell.row
            return .pass
        }
    }

    private func decorate<E: Event>(_ type: E.Type) {
        strategies.on(type) { cell, _, context in
            context.info[Row.self] = cell.row
            return .pass
        }
    }
}

@MainActor
private final class ProductScreen {
    let delegate = AppDelegate()
    let events = ProductEvents()
    let app: Application
    let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 480), label: "window")
    let controller = ViewController(view: View(label: "rootView"), label: "ProductController")
    let table = View(frame: Rect(x: 0, y: 140, width: 390, height: 200), label: "table")
    /// The table's pan: it competes with the buttons in the rows for each pointer sequence.
    let scroll = PanGestureRecognizer(label: "scroll")
    /// The clock of the application's system (its gestures' timers), advanced by hand: the
    /// output is the same on every run.
    let clock = ManualClock()
    var cells: [ProductCell] = []
    /// What the controls were told of cancelled sequences, not yet printed.
    private var told: [String] = []

    init() {
        app = Application(
            delegate: delegate,
            system: EventSystem(
                tracer: PrintingTracer(printer: PrintingTracer.Printer(showsDurations: false)) {
                    print(indented($0))
                }, clock: clock),
            label: "app")
        controller.eventProxy = events
        window.rootController = controller
        app.addWindow(window)

        let image = Control(frame: Rect(x: 20, y: 10, width: 350, height: 120), label: "image")
        image.addChainEvent(for: .tap) { _ in ZoomImage() }
        controller.view.addSubview(image)
        controller.view.addSubview(table)
        scroll.addChainEvent { pan in Scrolled(translation: pan.translation, state: pan.state) }
        table.addGestureRecognizer(scroll)
        for row in 0..<3 {
            let cell = ProductCell(
                row: row, sku: "SKU-\(100 + row)",
                frame: Rect(x: 0, y: Double(row) * 44, width: 390, height: 44))
            cells.append(cell)
            table.addSubview(cell)
            for case let control as Control in cell.subviews { noteCancellations(of: control) }
        }

        let popup = View(frame: Rect(x: 20, y: 380, width: 350, height: 80), label: "popup")
        let close = Button(frame: Rect(x: 290, y: 20, width: 50, height: 40), title: "Close")
        close.addChainEvent(for: .tap) { _ in ClosePopup() }
        popup.addSubview(close)
        window.addSubview(popup)
    }

    @discardableResult
    func tap(_ title: String, at point: Point) async -> PointerDelivery? {
        print("\n-- \(title) at \(point)")
        guard window.hitTest(point) != nil else {
            print("   hit: nothing; no event sent")
            return await window.tap(at: point)
        }
        print("   hit: " + hitPath(at: point))
        return await window.tap(at: point)
    }

    /// The view hit at `point` and its ancestors: `Add ▸ cell 1 ▸ table ▸ rootView ▸ window`.
    func hitPath(at point: Point) -> String {
        var path: [String] = []
        var view = window.hitTest(point)
        while let current = view {
            path.append(current.label)
            view = current.superview
        }
        return path.isEmpty ? "nothing" : path.joined(separator: " ▸ ")
    }

    /// The lines noted since the last call, each a control told its sequence was cancelled.
    func takeTold() -> [String] {
        defer { told = [] }
        return told
    }

    /// Notes each cancellation `control` is told of, with its reason; the control then handles it
    /// as usual.
    private func noteCancellations(of control: Control) {
        control.strategies.on(PointerEvent.self) { [weak self] control, pointer, _ in
            if let reason = pointer.cancellation {
                self?.told.append("\(control.label) is told: cancelled, \(reason)")
            }
            return .pass
        }
    }
}

/// The trace block of one event, indented under the step that caused it.
private func indented(_ block: String) -> String {
    block.split(separator: "\n").map { "     " + $0 }.joined(separator: "\n")
}
