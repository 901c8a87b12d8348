import ResponderChain
import ResponderUI

/// The product-detail screen scenario (window layer): taps through hit testing into the chain.
///
/// ```
/// window
/// ├─ rootView (ProductController, event proxy: ProductEvents)
/// │  ├─ header image (a tappable control)
/// │  └─ table (scrollable)
/// │     └─ cell 0…2: [Details] [Add] [Share] (favourite switch)
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
        print("   \(add?.label ?? "?") is told: highlighted \((add as? Control)?.isHighlighted ?? false)")
        print("   active pointers after removal: \(screen.window.activePointers.count)")
        let later = await screen.window.dispatch(.ended, at: Point(x: 150, y: 160))
        print(
            "   a later 'ended' delivers \(later == nil ? "nothing: the sequence was cancelled" : "something")"
        )

        print("\n-- scroll the table by 44 pt, then tap the point of 'Add' on cell 1 again")
        screen.table.boundsOrigin = Point(x: 0, y: 44)
        await screen.tap("same point, scrolled: now cell 2's 'Add'", at: Point(x: 150, y: 200))

        print("\n-- the delegate saw: \(await screen.delegate.seen.joined(separator: ", "))")
        print("-- the cart holds: \(screen.events.cart.joined(separator: ", "))")
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
    var next: (any Responder)? { nil }

    nonisolated static let strategies = Strategies<ProductEvents> {
        $0.on(AddToCart.self) { events, event, context in
            events.cart.append(event.sku)
            context.info[Screen.self] = "product"
            return .handledAndContinue  // analytics in the app delegate see it too
        }
        $0.on(ShowDetails.self) { _, _, _ in .handled }
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
        // Every event from inside the cell learns its row on the way up.
        for type in [AddToCart.self, ShareProduct.self, ShowDetails.self] as [any Event.Type] {
            decorate(type)
        }
        handlers.on(FavouriteChanged.self) { cell, _, context in
            context.info[Row.self] = cell.row
            return .pass
        }
    }

    private func decorate<E: Event>(_ type: E.Type) {
        handlers.on(type) { cell, _, context in
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
    var cells: [ProductCell] = []

    init() {
        app = Application(
            delegate: delegate, system: EventSystem(tracer: PrintingTracer { print(indented($0)) }),
            label: "app")
        controller.eventProxy = events
        window.rootController = controller
        app.addWindow(window)

        let image = Control(frame: Rect(x: 20, y: 10, width: 350, height: 120), label: "image")
        image.addChainEvent(for: .tap) { _ in ZoomImage() }
        controller.view.addSubview(image)
        controller.view.addSubview(table)
        for row in 0..<3 {
            let cell = ProductCell(
                row: row, sku: "SKU-\(100 + row)",
                frame: Rect(x: 0, y: Double(row) * 44, width: 390, height: 44))
            cells.append(cell)
            table.addSubview(cell)
        }

        let popup = View(frame: Rect(x: 20, y: 380, width: 350, height: 80), label: "popup")
        let close = Button(frame: Rect(x: 290, y: 20, width: 50, height: 40), title: "Close")
        close.addChainEvent(for: .tap) { _ in ClosePopup() }
        popup.addSubview(close)
        window.addSubview(popup)
    }

    func tap(_ title: String, at point: Point) async {
        print("\n-- \(title) at \(point)")
        guard let hit = window.hitTest(point) else {
            print("   hit: nothing; no event sent")
            await window.tap(at: point)
            return
        }
        var path: [String] = []
        var view: View? = hit
        while let current = view {
            path.append(current.label)
            view = current.superview
        }
        print("   hit: " + path.joined(separator: " ▸ "))
        await window.tap(at: point)
    }
}

/// The trace block of one event, indented under the step that caused it.
private func indented(_ block: String) -> String {
    block.split(separator: "\n").map { "     " + $0 }.joined(separator: "\n")
}
